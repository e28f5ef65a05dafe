// Benchmarks of the bridge in Node (reported, not asserted): cold start
// (compile, instantiate, load manifest, first observe), describe on an
// unchanged store, and sync after one changed record, at 1,000 and 10,000
// records. Run with `make bench-js` (or `node bench/sync.mjs` after
// `make wasm`). Aims: warm describe < 1 ms, one-record sync < 2 ms at 10,000.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { createPinhole, compileModule } from "../src/index.js";
import { makeState } from "../../testdata/orders/generate.mjs";

const wasmBytes = readFileSync(new URL("../../build/pinhole.wasm", import.meta.url));
const manifest = JSON.parse(readFileSync(new URL("../../testdata/orders/manifest.json", import.meta.url), "utf8"));

/** @param {number[]} xs */
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** @param {() => unknown} f @param {number} n */
function time(f, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    f();
    out.push(performance.now() - t);
  }
  return out;
}

/** @param {any} initial */
function store(initial) {
  let state = initial;
  const ls = new Set();
  return {
    getState: () => state,
    subscribe: (/** @type {any} */ l) => (ls.add(l), () => ls.delete(l)),
    set(/** @type {any} */ s) {
      state = s;
      for (const l of ls) l();
    },
  };
}

const rows = [];
for (const n of [1000, 10000]) {
  const state = makeState(n);
  const t0 = performance.now();
  const module = await compileModule(wasmBytes);
  const tCompile = performance.now() - t0;
  const t1 = performance.now();
  const s = store(state);
  // The trace hook splits time spent in the module from time in the bridge.
  let inModule = 0;
  let sentAt = 0;
  const trace = (/** @type {string} */ dir) => {
    if (dir === "in") sentAt = performance.now();
    else inModule += performance.now() - sentAt;
  };
  const p = /** @type {any} */ (await createPinhole({ wasm: module, manifest, store: s, trace }));
  const tStart = performance.now() - t1;
  // Warm describe: the store has not changed.
  for (let i = 0; i < 20; i++) await p.describeText();
  const describe = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await p.describeText();
    describe.push(performance.now() - t);
  }
  // One changed record: an immutable update of one order, then the sync.
  let k = 0;
  /** @type {number[]} */
  const bridgeSide = [];
  const sync = time(() => {
    inModule = 0;
    const t = performance.now();
    const cur = s.getState();
    const items = cur.orders.items.slice();
    const i = (k++ * 7919) % n;
    items[i] = { ...items[i], status: k % 2 ? "Shipped" : "On hold" };
    s.set({ ...cur, orders: { ...cur.orders, items } });
    p.flush();
    bridgeSide.push(performance.now() - t - inModule);
  }, 200);
  // The naive alternative: serialise the whole store.
  const stringify = time(() => JSON.stringify(s.getState()), 20);
  rows.push({
    records: n,
    compileMs: +tCompile.toFixed(1),
    startMs: +tStart.toFixed(1),
    describeMedianMs: +median(describe).toFixed(3),
    syncOneRecordMedianMs: +median(sync).toFixed(3),
    syncOneRecordP90Ms: +sync.sort((a, b) => a - b)[Math.floor(sync.length * 0.9)].toFixed(3),
    syncBridgeSideMedianMs: +median(bridgeSide).toFixed(3),
    jsonStringifyStoreMs: +median(stringify).toFixed(2),
  });
  p.dispose();
}
console.table(rows);
mkdirSync(new URL("../../build/", import.meta.url), { recursive: true });
writeFileSync(new URL("../../build/bench-js.json", import.meta.url), JSON.stringify(rows, null, 2) + "\n");
