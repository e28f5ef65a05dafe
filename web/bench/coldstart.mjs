// coldStart times one cold start of a Go wasip1 reactor, phase by phase:
// compile, instantiate (with the bridge's WASI shim), _initialize (the Go
// runtime and package initialisers), and, for pinhole.wasm, the first
// request (the load of a manifest) through the module's ABI. Shared by
// web/bench/startup-node.mjs (one fresh Node process per sample) and
// web/bench/startup-page.mjs (one fresh Chromium page per sample).
//
// settleMs > 0 waits that long between _initialize and the load, off the
// clock: the load then runs after the background recompiles that the Go
// runtime's start triggered in V8 have finished, instead of sharing the
// CPU with them. The total is then the sum of the phases.
import { createWasi } from "../../js/src/wasi.js";

const now = () => performance.now();

/** SETTLE_MS is the pause before a settled sample's load (startup-node.mjs settled): long enough for the recompiles the start triggers to finish. */
export const SETTLE_MS = 250;

/**
 * @param {() => Promise<WebAssembly.Module>} compile
 * @param {string | null} request the first request (null: none, as for the empty reactor)
 * @param {number} [settleMs] a pause between _initialize and the request, not timed
 * @param {(phase: string) => void} [mark] called as each phase starts, and with "end"
 * @returns {Promise<{module: WebAssembly.Module, instance: WebAssembly.Instance,
 *   times: {compile: number, instantiate: number, initialize: number, load: number, total: number}}>}
 */
export async function coldStart(compile, request, settleMs = 0, mark = () => {}) {
  mark("compile");
  const t0 = now();
  const module = await compile();
  const t1 = now();
  mark("instantiate");
  const wasi = createWasi({}, module);
  const instance = await WebAssembly.instantiate(module, wasi.imports);
  wasi.bind(instance);
  const t2 = now();
  /** @type {any} */
  const ex = instance.exports;
  mark("initialize");
  ex._initialize();
  let t3 = now();
  const paused = settleMs > 0 ? await new Promise((done) => setTimeout(() => done(now() - t3), settleMs)) : 0;
  t3 += paused;
  mark("load");
  if (request !== null) {
    const req = new TextEncoder().encode(request);
    const ptr = ex.pinhole_alloc(req.length) >>> 0;
    new Uint8Array(ex.memory.buffer, ptr, req.length).set(req);
    const packed = BigInt.asUintN(64, ex.pinhole_call(ptr, req.length));
    const text = new TextDecoder().decode(new Uint8Array(ex.memory.buffer, Number(packed >> 32n), Number(packed & 0xffffffffn)));
    ex.pinhole_free(ptr);
    if (!text.startsWith('{"loaded":true')) throw new Error("load failed: " + text.slice(0, 300));
  }
  const t4 = now();
  mark("end");
  return { module, instance, times: { compile: t1 - t0, instantiate: t2 - t1, initialize: t3 - paused - t2, load: t4 - t3, total: t4 - t0 - paused } };
}
