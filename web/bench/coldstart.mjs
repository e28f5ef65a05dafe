// coldStart times one cold start of a Go wasip1 reactor, phase by phase:
// compile, instantiate (with the bridge's WASI shim), _initialize (the Go
// runtime and package initialisers), and, for pinhole.wasm, the first
// request (the load of a manifest) through the module's ABI. Shared by
// web/bench/startup-node.mjs (one fresh Node process per sample) and
// web/bench/startup-page.mjs (one fresh Chromium page per sample).
import { createWasi } from "../../js/src/wasi.js";

const now = () => performance.now();

/**
 * @param {() => Promise<WebAssembly.Module>} compile
 * @param {string | null} request the first request (null: none, as for the empty reactor)
 * @returns {Promise<{module: WebAssembly.Module, instance: WebAssembly.Instance,
 *   times: {compile: number, instantiate: number, initialize: number, load: number, total: number}}>}
 */
export async function coldStart(compile, request) {
  const t0 = now();
  const module = await compile();
  const t1 = now();
  const wasi = createWasi({}, module);
  const instance = await WebAssembly.instantiate(module, wasi.imports);
  wasi.bind(instance);
  const t2 = now();
  /** @type {any} */
  const ex = instance.exports;
  ex._initialize();
  const t3 = now();
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
  return { module, instance, times: { compile: t1 - t0, instantiate: t2 - t1, initialize: t3 - t2, load: t4 - t3, total: t4 - t0 } };
}
