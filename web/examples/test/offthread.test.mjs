// The module off the main thread, in Chromium: the demo (web/dist, built by
// make web-build) hosts pinhole.wasm in a dedicated Web Worker by default.
// The page never fetches or instantiates the module itself; describe,
// execute and after run through the worker; a trap inside the worker, and
// the worker itself failing, are recovered like a trap in-thread (a new
// instance, or a new worker, with the store's slice observed again). The
// trap is made through the bridge's test-only hook (?faults=1 in the demo);
// without it the worker does not overwrite its module's memory.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { launchOptions } from "../../chromium.mjs";
import { startServer } from "../../serve.mjs";

const KEY = "offthread-test-key-0123456789";

let server, browser;
before(async () => {
  server = await startServer();
  browser = await chromium.launch(launchOptions());
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** open loads the demo with query q and waits until it is ready. */
async function open(q = "") {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(30000);
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${server.url}?key=${KEY}${q}`);
  await page.waitForSelector("html[data-ready=true]");
  return { page, problems, close: () => context.close() };
}

/** wasmResources lists the .wasm fetches a realm (page or worker) made. */
const wasmResources = () => performance.getEntriesByType("resource").map((e) => e.name).filter((n) => n.endsWith(".wasm"));

test("the demo hosts the module in a worker: the page fetches no wasm and holds no instance; describe, execute and after run", async () => {
  const { page, problems, close } = await open();
  try {
    assert.equal(await page.evaluate(() => demo.pinhole.host), "worker");
    const workers = page.workers();
    assert.equal(workers.length, 1, "one worker");
    assert.deepEqual(await page.evaluate(wasmResources), [], "the page fetched no wasm");
    assert.equal((await workers[0].evaluate(wasmResources)).length, 1, "the worker fetched pinhole.wasm");
    // No WebAssembly.Instance was made on the main thread: the page's bridge has only the worker.
    const inst = await page.evaluate(() => {
      const i = demo.pinhole[Symbol.for("pinhole.internals")].instance;
      return { host: i.host, isWorker: i.worker instanceof Worker, exports: "exports" in i, fault: "fault" in i };
    });
    assert.deepEqual(inst, { host: "worker", isWorker: true, exports: false, fault: false });

    const r = await page.evaluate(async () => {
      const d = await demo.pinhole.describe({ record: ["SO-1001"] });
      const x = await demo.pinhole.execute({ capability: "order.open", record: "SO-1001", snapshot: d.snapshot });
      return { d, x };
    });
    assert.equal(r.d.context.recordsTotal, 48);
    assert.equal(r.x.ok, true, JSON.stringify(r.x));
    assert.equal(r.x.after.from, r.d.snapshot);
    assert.ok(r.x.after.redescribe.reasons.includes("modal"), JSON.stringify(r.x.after));
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

for (const how of ["trap", "worker"]) {
  test(`a ${how === "trap" ? "trap inside the worker" : "failing worker"} is recovered: new ${how === "trap" ? "instance" : "worker"}, the store's slice restored, ids increasing`, async () => {
    const { page, problems, close } = await open(how === "trap" ? "&faults=1" : "");
    try {
      const r = await page.evaluate(async (how) => {
        const p = demo.pinhole;
        const int = () => p[Symbol.for("pinhole.internals")];
        const before = await p.describe({ record: ["SO-1001"] });
        const w0 = int().instance.worker;
        demo.app.act.open("SO-1002");
        if (how === "trap") await int().instance.fault();
        else w0.postMessage({ t: "no such message" }); // the worker throws: it is treated as failed
        const d = await p.describe({ record: ["SO-1001"] });
        const x = await p.execute({ capability: "order.open", record: "SO-1001", snapshot: d.snapshot });
        const stale = await p.execute({ capability: "order.open", record: "SO-1001", snapshot: before.snapshot });
        return {
          before, d, x, stale,
          sameWorker: int().instance.worker === w0,
          recovered: demo.audit.filter((e) => e.kind === "recovered"),
        };
      }, how);
      assert.ok(!r.d.error, JSON.stringify(r.d));
      assert.equal(r.sameWorker, how === "trap", "a trap keeps the worker; a failed worker is replaced");
      assert.equal(r.recovered.length, 1, JSON.stringify(r.recovered));
      assert.equal(r.recovered[0].restoredFrom, "store");
      assert.equal(r.recovered[0].cause, how === "trap" ? "WasiExit" : "WorkerError");
      assert.ok(Number(r.d.snapshot.slice(1)) > Number(r.before.snapshot.slice(1)), `${r.before.snapshot} → ${r.d.snapshot}`);
      assert.deepEqual(r.d.context.records[0].fields.phone, r.before.context.records[0].fields.phone, "aliases are stable (same key)");
      // The side panel opened just before the failure: its capability is in the restored context.
      const refund = (d) => d.capabilities.some((c) => c.name === "order.refund");
      assert.deepEqual([refund(r.before), refund(r.d)], [false, true], "the store's last change is in the restored snapshot");
      assert.equal(r.x.ok, true, JSON.stringify(r.x));
      assert.equal(r.stale.error.code, "stale_snapshot");
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}
