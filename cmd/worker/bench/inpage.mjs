// The in-page path for comparison with the Worker: build/pinhole.wasm in
// Node through node:wasi, instantiated once, as the page's bridge holds it.
// Prints the one-time start-up cost and per-call latencies for the orders
// example. Run from the repository root: node cmd/worker/bench/inpage.mjs [N]
import { readFileSync } from "node:fs";
import { WASI } from "node:wasi";

const n = Number(process.argv[2] ?? 200);
const manifest = readFileSync("testdata/orders/manifest.json", "utf8");
const state = readFileSync("testdata/orders/state.json", "utf8");
const enc = new TextEncoder();
const dec = new TextDecoder();

const t0 = performance.now();
const wasi = new WASI({ version: "preview1", args: [], env: {}, returnOnExit: true });
const mod = await WebAssembly.compile(readFileSync("build/pinhole.wasm"));
const instance = await WebAssembly.instantiate(mod, wasi.getImportObject());
wasi.initialize(instance);
const startup = performance.now() - t0;
const ex = instance.exports;

/** One module call, as the bridge makes it. @param {string} req */
function call(req) {
  const b = enc.encode(req);
  const p = ex.pinhole_alloc(b.length);
  new Uint8Array(ex.memory.buffer, p, b.length).set(b);
  const packed = ex.pinhole_call(p, b.length);
  const out = dec.decode(new Uint8Array(ex.memory.buffer, Number(packed >> 32n), Number(packed & 0xffffffffn)));
  ex.pinhole_free(p);
  return out;
}

/** Median and p90 in ms of n runs of fn. @param {() => void} fn */
function measure(fn) {
  const t = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    fn();
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  return `p50 ${t[n >> 1].toFixed(3)} ms, p90 ${t[Math.floor(n * 0.9)].toFixed(3)} ms`;
}

const load = `{"op":"load","manifest":${manifest}}`;
const observe = `{"op":"observe","state":${state}}`;
for (const r of [load, observe, `{"op":"describe"}`]) {
  if (call(r).startsWith(`{"error"`)) throw new Error("the orders example failed in the module");
}
console.log(`in-page module (Node ${process.version}): compile+instantiate+_initialize ${startup.toFixed(1)} ms once`);
console.log(`in-page load+observe+describe (what one Worker request does): ${measure(() => { call(load); call(observe); call(`{"op":"describe"}`); })}`);
console.log(`in-page describe on the current snapshot (the usual agent call): ${measure(() => call(`{"op":"describe"}`))}`);
