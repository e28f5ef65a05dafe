// Latency benchmarks that run unchanged in Node and, bundled by
// web/bench/run.mjs, in headless Chromium: Pinhole (the js/ bridge over
// pinhole.wasm) against the hand-written projection of handwritten.mjs, on
// the orders example at several sizes, plus the module's start-up.
//
// Every figure is a list of samples; the caller summarises them. Pinhole and
// the hand-written projection are measured interleaved (one sample of each
// in turn) so that load on the machine hits both alike, and each pair gives
// a ratio.
import { createPinhole, createModuleInstance } from "../../js/src/index.js";
import { buildReadTree, NONE, Pruner } from "../../js/src/reads.js";
import { makeState } from "../../testdata/orders/generate.mjs";
import { createHandwritten } from "./handwritten.mjs";

/** The session key of the conformance vectors: aliases are reproducible. */
export const KEY = "conformance-key-0001";

const now = () => performance.now();

/** A minimal immutable store (what Redux or Zustand look like to the bridge). */
function memoryStore(initial) {
  let state = initial;
  const ls = new Set();
  return {
    getState: () => state,
    subscribe: (l) => (ls.add(l), () => ls.delete(l)),
    set(s) { state = s; for (const l of ls) l(); },
  };
}

/**
 * chain returns states[0..len]: states[0] is base and each next state
 * changes one order (its status) immutably, as a store update would.
 */
function chain(base, len) {
  const out = [base];
  let s = base;
  const n = base.orders.items.length;
  for (let k = 1; k <= len; k++) {
    const items = s.orders.items.slice();
    const r = (k * 7919) % n;
    items[r] = { ...items[r], status: items[r].status === "Shipped" ? "On hold" : "Shipped" };
    s = { ...s, orders: { ...s.orders, items } };
    out.push(s);
  }
  return out;
}

/** normalise hides what legitimately differs between two projections: snapshot ids and HMAC tokens. */
export function normalise(text) {
  return text.replace(/"snapshot":"s\d+"/, '"snapshot":"s"').replace(/\b(al|ph)_[a-z0-9]{8,}/g, "$1_…");
}

/** firstDifference returns a short description of where two texts differ, or "". */
function firstDifference(a, b) {
  if (a === b) return "";
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at byte ${i}: pinhole …${a.slice(Math.max(0, i - 40), i + 60)}… handwritten …${b.slice(Math.max(0, i - 40), i + 60)}…`;
}

/**
 * runSize measures one workload of n orders.
 * @param {WebAssembly.Module} module compiled pinhole.wasm
 * @param {any} manifest
 * @param {{n: number, reps: number, batch: number, syncBatch: number, coldReps: number, coldModuleReps?: number}} cfg
 * @param {(msg: string) => void} [log]
 */
export async function runSize(module, manifest, cfg, log = () => {}) {
  const { n, reps, batch, syncBatch, coldReps } = cfg;
  const base = makeState(n);
  const manifestText = JSON.stringify(manifest);
  const loadReq = `{"op":"load","manifest":${manifestText},"key":${JSON.stringify(KEY)}}`;
  const res = { n };

  // Cold full sync: a fresh instance with the manifest loaded (not timed),
  // then the bridge's own first sync, split into its parts: the declared
  // slice (js/src/reads.js), JSON.stringify of the request, the module call
  // (UTF-8 encode + copy + parse + snapshot inside the module), and the
  // first describe. Fresh instances, so nothing is cached. The first
  // coldModuleReps runs call the module; the others time the JS parts only.
  // The bridge's own first sync (createPinhole below) adds one more module
  // observe sample, taken through its trace hook.
  const coldModuleReps = cfg.coldModuleReps ?? coldReps;
  log(`n=${n}: cold full sync ×${coldReps} (module ×${coldModuleReps} + the bridge's own)`);
  const cold = { slice: [], stringify: [], encode: [], observe: [], describe: [], total: [], handwritten: [], bytes: 0 };
  const te = new TextEncoder();
  for (let r = 0; r < coldReps; r++) {
    const inst = await createModuleInstance(module);
    const loaded = JSON.parse(inst.call(loadReq));
    if (loaded.error) throw new Error(JSON.stringify(loaded));
    const pruner = new Pruner(buildReadTree(loaded.reads), () => {});
    const t0 = now();
    const out = pruner.slice(base, NONE, undefined, true);
    const t1 = now();
    const text = JSON.stringify({ op: "observe", state: out });
    const t2 = now();
    cold.slice.push(t1 - t0); cold.stringify.push(t2 - t1);
    cold.bytes = text.length;
    if (r < coldModuleReps) {
      const resp = inst.call(text);
      const t3 = now();
      const d = inst.call('{"op":"describe"}');
      const t4 = now();
      if (resp.startsWith('{"error"') || d.startsWith('{"error"')) throw new Error(resp.slice(0, 300) + d.slice(0, 300));
      cold.observe.push(t3 - t2); cold.describe.push(t4 - t3); cold.total.push(t3 - t0);
    }
    const t5 = now();
    te.encode(text);
    cold.encode.push(now() - t5);
  }
  // The hand-written projection's cold answer: a fresh projector (no memo) on the store.
  for (let r = 0; r < coldReps; r++) {
    const hw = createHandwritten(KEY);
    const t0 = now();
    await hw.describe(base);
    cold.handwritten.push(now() - t0);
  }
  res.cold = cold;

  // The bridge over a store holding the base state; its trace hook times
  // the module side of its first (full) sync.
  const store = memoryStore(base);
  let sentAt = 0;
  let firstObserve = -1;
  const trace = (dir, text) => {
    if (firstObserve >= 0) return;
    if (dir === "in") sentAt = text.startsWith('{"op":"observe","state"') ? now() : 0;
    else if (sentAt) firstObserve = now() - sentAt;
  };
  const t0 = now();
  const p = await createPinhole({ wasm: module, manifest, store, key: KEY, trace });
  res.createPinhole = now() - t0;
  if (firstObserve >= 0) {
    cold.observe.push(firstObserve);
    if (!coldModuleReps) {
      const mid = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
      cold.total.push(mid(cold.slice) + mid(cold.stringify) + firstObserve);
    }
  }
  const hw = createHandwritten(KEY);
  /** The bridge's own module instance, for the module-only describe. */
  const inst = p[Symbol.for("pinhole.internals")].instance;

  // Same output? Byte-identical up to snapshot ids and HMAC tokens.
  const pText = await p.describeText({});
  const hText = await hw.describe(base, {});
  res.contextBytes = pText.length;
  res.sameOutput = normalise(pText) === normalise(hText);
  res.difference = firstDifference(normalise(pText), normalise(hText));
  const pWin = await p.describeText({ offset: 16, limit: 8 });
  const hWin = await hw.describe(base, { offset: 16, limit: 8 });
  res.sameOutputWindow = normalise(pWin) === normalise(hWin);

  // Warm describe, unchanged store: interleaved batches.
  log(`n=${n}: warm describe ×${reps}×${batch}`);
  // moduleOnly: the same describe sent straight to the bridge's module
  // instance (same snapshot), without the bridge's own work.
  const warm = { pinhole: [], handwritten: [], ratio: [], moduleOnly: [] };
  for (let i = 0; i < 3 * batch; i++) { await p.describeText({}); await hw.describe(base, {}); inst.call('{"op":"describe"}'); }
  for (let r = 0; r < reps; r++) {
    let t0 = now();
    for (let i = 0; i < batch; i++) await p.describeText({});
    const a = (now() - t0) / batch;
    t0 = now();
    for (let i = 0; i < batch; i++) await hw.describe(base, {});
    const b = (now() - t0) / batch;
    t0 = now();
    for (let i = 0; i < batch; i++) inst.call('{"op":"describe"}');
    warm.moduleOnly.push((now() - t0) / batch);
    warm.pinhole.push(a); warm.handwritten.push(b); warm.ratio.push(a / b);
  }
  res.warm = warm;

  // One changed record: the store moves along a chain of states, each one
  // order different from the last. Pinhole: the sync alone (store update
  // notification + flush: slice reuse, diff, JSON Patch observe), and the
  // sync followed by a describe; the hand-written projection: its describe
  // of the new state (it has no sync).
  log(`n=${n}: one-record change ×${reps}×${syncBatch}`);
  const warmup = 3;
  const states = chain(base, (warmup + reps) * syncBatch * 2 + 1);
  let k = 0;
  const one = { sync: [], syncDescribe: [], handwritten: [], ratio: [] };
  for (let r = -warmup; r < reps; r++) {
    let t0 = now();
    for (let i = 0; i < syncBatch; i++) { store.set(states[++k]); p.flush(); }
    const a = (now() - t0) / syncBatch;
    t0 = now();
    for (let i = 0; i < syncBatch; i++) { store.set(states[++k]); p.flush(); await p.describeText({}); }
    const b = (now() - t0) / syncBatch;
    t0 = now();
    for (let i = 0; i < syncBatch; i++) await hw.describe(states[k - syncBatch + i + 1], {});
    const c = (now() - t0) / syncBatch;
    if (r < 0) continue;
    one.sync.push(a); one.syncDescribe.push(b); one.handwritten.push(c); one.ratio.push(b / c);
  }
  // The last sync really was a patch, and the context followed the store.
  const after = JSON.parse(await p.describeText({ record: [states[k].orders.items[(k * 7919) % n].number] }));
  res.followsStore = after.context?.records?.[0]?.fields?.status === states[k].orders.items[(k * 7919) % n].status;
  res.one = one;
  p.dispose();
  return res;
}

/**
 * unique returns the module bytes with a 4-byte custom section appended
 * (ignored by the runtime), different on every call, so that V8 cannot hand
 * back a module it compiled from the same bytes before: every compile is cold.
 * @param {Uint8Array} bytes
 */
let uniq = 0;
export function unique(bytes) {
  const out = new Uint8Array(bytes.length + 8);
  out.set(bytes);
  const k = ++uniq + Math.floor(Math.random() * 1e6) * 1024;
  out.set([0x00, 0x06, 0x01, 0x62, k & 255, (k >>> 8) & 255, (k >>> 16) & 255, (k >>> 24) & 255], bytes.length);
  return out;
}

/**
 * startup measures compile, instantiate (with _initialize) and load of the
 * orders manifest, reps times, from a fresh source each time.
 * @param {() => Promise<WebAssembly.Module>} compile
 * @param {any} manifest
 * @param {number} reps
 */
export async function startup(compile, manifest, reps) {
  const loadReq = `{"op":"load","manifest":${JSON.stringify(manifest)},"key":${JSON.stringify(KEY)}}`;
  const out = { compile: [], instantiate: [], load: [], total: [], firstDescribe: [] };
  for (let r = 0; r < reps; r++) {
    const t0 = now();
    const module = await compile();
    const t1 = now();
    const inst = await createModuleInstance(module);
    const t2 = now();
    const loaded = inst.call(loadReq);
    const t3 = now();
    if (loaded.startsWith('{"error"')) throw new Error(loaded);
    out.compile.push(t1 - t0); out.instantiate.push(t2 - t1); out.load.push(t3 - t2); out.total.push(t3 - t0);
    // From a compiled module to the first describe of the 48-order store through the bridge.
    const store = memoryStore(makeState(48));
    const t4 = now();
    const p = await createPinhole({ wasm: module, manifest, store, key: KEY });
    await p.describeText({});
    out.firstDescribe.push(now() - t4);
    p.dispose();
  }
  return out;
}
