// Cold observe cost as the store grows (reported, not asserted): for each
// size, a fresh Node process creates a bridge over the orders store and
// times the module's first observe (the whole declared slice), with the
// module built as shipped and, beside it, the module built without the
// one-step heap reservation (`-tags pinhole_noreserve`), interleaved in the
// same run. Reported: wall and CPU time of the process (all threads) during
// the call, the full collections of the JS heap in it, the module's linear
// memory after it against the request's size, and the process's peak RSS.
// Run with `make bench-flat`; writes build/bench-flat.json.
//
//   node bench/flat.mjs [--quick]                  the whole run
//   node bench/flat.mjs --child WASM N             one sample (JSON on stdout)
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { PerformanceObserver, constants } from "node:perf_hooks";
import { createPinhole } from "../src/index.js";
import { makeState } from "../../testdata/orders/generate.mjs";

const build = new URL("../../build/", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("../../testdata/orders/manifest.json", import.meta.url), "utf8"));

/** child runs one cold observe of n orders with the module at wasm. */
async function child(/** @type {string} */ wasm, /** @type {number} */ n) {
  const state = makeState(n); // the app's store stays alive on the JS heap
  const store = { getState: () => state, subscribe: () => () => {} };
  let sentAt = 0;
  let observeEnd = 0;
  /** @type {NodeJS.CpuUsage | undefined} */
  let cpuAt;
  let cpuMs = 0;
  let observeMs = 0;
  let requestBytes = 0;
  let memory = 0;
  /** @type {any} */
  let p;
  const trace = (/** @type {string} */ dir, /** @type {string} */ text) => {
    if (dir === "in") {
      if (text.startsWith('{"op":"observe"')) {
        requestBytes = Buffer.byteLength(text);
        process.stdout.write("@@observe-start\n"); // between the markers: this observe's --trace-gc lines
        cpuAt = process.cpuUsage();
      }
      sentAt = performance.now();
    } else if (requestBytes && !observeMs) {
      observeEnd = performance.now();
      observeMs = observeEnd - sentAt;
      const c = process.cpuUsage(cpuAt);
      cpuMs = (c.user + c.system) / 1000;
      process.stdout.write("@@observe-end\n");
    }
  };
  const bytes = readFileSync(wasm);
  p = await createPinhole({ wasm: bytes, manifest, store, trace });
  memory = p[Symbol.for("pinhole.internals")].instance.exports.memory.buffer.byteLength;
  const rssPeak = process.resourceUsage().maxRSS * 1024;
  p.dispose();
  return { n, requestBytes, observeMs, cpuMs, memory, rssPeak };
}

/**
 * sample runs one child under --trace-gc and counts the full collections
 * (mark-compact) of the JS heap during its observe.
 */
function sample(/** @type {string} */ self, /** @type {string} */ wasm, /** @type {number} */ n) {
  const text = execFileSync(process.execPath, ["--trace-gc", self, "--child", wasm, String(n)], { encoding: "utf8", maxBuffer: 64 << 20 });
  const lines = text.split("\n");
  const from = lines.indexOf("@@observe-start");
  const to = lines.indexOf("@@observe-end");
  const result = lines.find((l) => l.startsWith("@@result "));
  if (from < 0 || to < from || !result) throw new Error("unexpected child output:\n" + text.slice(-2000));
  const fullGCs = lines.slice(from, to).filter((l) => l.includes("Mark-Compact")).length;
  return { ...JSON.parse(result.slice("@@result ".length)), fullGCs };
}

if (process.argv[2] === "--child") {
  const out = await child(process.argv[3], Number(process.argv[4]));
  process.stdout.write("@@result " + JSON.stringify(out) + "\n");
} else {
  const quick = process.argv.includes("--quick");
  const loadAverageAtStart = loadavg();
  const sizes = quick ? [10000, 30000] : [10000, 30000, 100000];
  const runs = quick ? 1 : 3;
  const modules = { reserve: fileURLToPath(new URL("pinhole.wasm", build)), noreserve: fileURLToPath(new URL("pinhole-noreserve.wasm", build)) };
  const self = fileURLToPath(import.meta.url);
  /** @type {Record<string, any[]>} */
  const samples = {};
  for (let r = 0; r < runs; r++) {
    for (const n of sizes) {
      for (const [name, wasm] of Object.entries(modules)) {
        const out = sample(self, wasm, n);
        (samples[`${name} ${n}`] ??= []).push(out);
        console.error(name, n, JSON.stringify(out));
      }
    }
  }
  const median = (/** @type {number[]} */ xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const rows = Object.entries(samples).map(([key, xs]) => {
    const [module, n] = key.split(" ");
    const mb = xs[0].requestBytes / 1e6;
    const ms = median(xs.map((x) => x.observeMs));
    const cpu = median(xs.map((x) => x.cpuMs));
    return {
      module, orders: Number(n), runs: xs.length, requestBytes: xs[0].requestBytes,
      observeMs: +ms.toFixed(1), msPerMB: +(ms / mb).toFixed(1), cpuMs: +cpu.toFixed(1), cpuMsPerMB: +(cpu / mb).toFixed(1),
      observeMsAll: xs.map((x) => +x.observeMs.toFixed(1)),
      fullGCs: median(xs.map((x) => x.fullGCs)),
      memoryBytes: median(xs.map((x) => x.memory)), rssPeakBytes: median(xs.map((x) => x.rssPeak)),
    };
  });
  console.table(rows.map(({ observeMsAll, ...r }) => r));
  mkdirSync(build, { recursive: true });
  writeFileSync(new URL("bench-flat.json", build), JSON.stringify({ node: process.version, written: new Date().toISOString(), quick, loadAverageAtStart, loadAverageAtEnd: loadavg(), rows }, null, 2) + "\n");
}
