// The goals table's rows for issue 14's aims that are not the start-up's
// (web/test/measure.test.mjs has those): main-thread blocking
// (offthread-report.mjs) and the flat cost of a cold observe
// (report-flat.mjs), judged from small bench outputs written here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { offthreadGoalRows } from "../bench/offthread-report.mjs";
import { flatGoalRows } from "../bench/report-flat.mjs";

/** withBuild runs fn on a fresh directory holding files (name → JSON). */
function withBuild(/** @type {Record<string, any>} */ files, /** @type {(dir: string) => void} */ fn) {
  const dir = mkdtempSync(join(tmpdir(), "pinhole-goals-"));
  try {
    for (const [name, v] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(v));
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const m = (/** @type {number} */ x) => ({ median: x, min: x, max: x });
const moment = (/** @type {number} */ blocking) => ({ wallMs: m(100), longTasks: m(1), longTaskMs: m(blocking + 50), blockingMs: m(blocking) });
const offthread = (/** @type {number} */ start, /** @type {number} */ sync) => ({
  hosts: { main: { start: moment(70), coldSync10k: moment(600) }, worker: { start: moment(start), coldSync10k: moment(sync) } },
});

test("blocking is judged from the worker's start and cold sync together", () => {
  withBuild({ "bench-offthread.json": offthread(0, 28) }, (dir) => {
    const [row] = offthreadGoalRows(dir);
    assert.match(row[1], /in a worker \(the default\): 28 ms; on the page's thread: 670 ms/);
    assert.equal(row[2], "**met**");
  });
  withBuild({ "bench-offthread.json": offthread(20, 30) }, (dir) => assert.equal(offthreadGoalRows(dir)[0][2], "**not met**"));
  withBuild({}, (dir) => assert.deepEqual(offthreadGoalRows(dir), []));
});

test("the flat cost is judged on the shipped module, in CPU time in Node", () => {
  const row = (/** @type {string} */ module, /** @type {number} */ orders, /** @type {number} */ cpu, /** @type {number} */ wall) =>
    ({ module, orders, cpuMsPerMB: cpu, msPerMB: wall });
  const page = (/** @type {string} */ module, /** @type {number} */ orders, /** @type {number} */ perMB) => ({ module, orders, msPerMB: perMB });
  const files = {
    "bench-flat.json": { rows: [row("reserve", 10000, 400, 300), row("reserve", 100000, 580, 600), row("noreserve", 10000, 400, 300), row("noreserve", 100000, 900, 900)] },
    "bench-flat-chromium.json": { observe: [page("reserve", 10000, 200), page("reserve", 100000, 320), page("noreserve", 10000, 200), page("noreserve", 100000, 100)] },
  };
  withBuild(files, (dir) => {
    const [node, chromium] = flatGoalRows(dir);
    assert.match(node[0], /Node, CPU time/);
    assert.equal(node[1], "1.45× (wall time 2.00×)");
    assert.equal(node[2], "**met**");
    assert.equal(chromium[1], "1.60×");
    assert.equal(chromium[2], "**not met**");
  });
  withBuild({}, (dir) => assert.deepEqual(flatGoalRows(dir), []));
});
