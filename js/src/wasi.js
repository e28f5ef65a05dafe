// The minimal WASI preview1 shim pinhole.wasm needs. The module is a Go
// wasip1 reactor; the ten functions a bare reactor imports are implemented
// here: no environment, no arguments, real randomness
// (crypto.getRandomValues) and real clocks. The file calls Go's os package
// adds are answered as on a system without files.
// js/README.md ("The WASI shim") explains why it is written here rather than
// taken from npm.

const ESUCCESS = 0;
const EBADF = 8;
const EINVAL = 28;
const ENOSYS = 52;

/** Thrown by proc_exit: the module asked to stop (the Go runtime died). */
export class WasiExit extends Error {
  /** @param {number} code */
  constructor(code) {
    super(`the module exited with code ${code}`);
    this.name = "WasiExit";
    this.code = code;
  }
}

/**
 * createWasi returns the import object for one module instance. Call
 * bind(instance) once the instance exists so the functions can reach its
 * memory.
 *
 * Should a build of the module import further preview1 functions (the Go
 * os package adds file functions), each is answered as on a system with no
 * files: EBADF for fd_* (so the runtime finds no preopened directories) and
 * ENOSYS for the rest. Pass the module to get those stubs.
 *
 * @param {{stdout?: (text: string) => void, stderr?: (text: string) => void}} [opts]
 *   where the module's fd 1 and fd 2 output goes; dropped when absent.
 * @param {WebAssembly.Module} [module] the module to be instantiated.
 */
export function createWasi(opts = {}, module) {
  /** @type {WebAssembly.Memory | undefined} */
  let memory;
  const view = () => new DataView(/** @type {WebAssembly.Memory} */ (memory).buffer);
  const bytes = () => new Uint8Array(/** @type {WebAssembly.Memory} */ (memory).buffer);
  const decoder = new TextDecoder();
  const zeroSizes = (/** @type {number} */ countPtr, /** @type {number} */ sizePtr) => {
    const v = view();
    v.setUint32(countPtr, 0, true);
    v.setUint32(sizePtr, 0, true);
    return ESUCCESS;
  };
  const perf = globalThis.performance;
  const nowNs = () => BigInt(Math.round((perf.timeOrigin + perf.now()) * 1e6));
  const monoNs = () => BigInt(Math.round(perf.now() * 1e6));

  const imports = {
    args_get: () => ESUCCESS,
    args_sizes_get: zeroSizes,
    environ_get: () => ESUCCESS,
    environ_sizes_get: zeroSizes,
    /** @param {number} id @param {bigint} _precision @param {number} out */
    clock_time_get(id, _precision, out) {
      if (id < 0 || id > 3) return EINVAL;
      view().setBigUint64(out, id === 0 ? nowNs() : monoNs(), true);
      return ESUCCESS;
    },
    /** @param {number} fd @param {number} iovs @param {number} iovsLen @param {number} nwritten */
    fd_write(fd, iovs, iovsLen, nwritten) {
      if (fd !== 1 && fd !== 2) return EBADF;
      const v = view();
      const mem = bytes();
      let total = 0;
      let text = "";
      for (let i = 0; i < iovsLen; i++) {
        const ptr = v.getUint32(iovs + i * 8, true);
        const len = v.getUint32(iovs + i * 8 + 4, true);
        const sink = fd === 1 ? opts.stdout : opts.stderr;
        if (sink) text += decoder.decode(mem.subarray(ptr, ptr + len));
        total += len;
      }
      const sink = fd === 1 ? opts.stdout : opts.stderr;
      if (sink && text) sink(text);
      v.setUint32(nwritten, total, true);
      return ESUCCESS;
    },
    /**
     * Answers every clock subscription at once (the module never needs to
     * sleep: it is called, computes and returns) and every fd subscription
     * with EBADF, as there are no files.
     * @param {number} inPtr @param {number} outPtr @param {number} n @param {number} neventsPtr
     */
    poll_oneoff(inPtr, outPtr, n, neventsPtr) {
      const v = view();
      for (let i = 0; i < n; i++) {
        const sub = inPtr + i * 48;
        const ev = outPtr + i * 32;
        const userdata = v.getBigUint64(sub, true);
        const type = v.getUint8(sub + 8);
        v.setBigUint64(ev, userdata, true);
        v.setUint16(ev + 8, type === 0 ? ESUCCESS : EBADF, true);
        v.setUint8(ev + 10, type);
        for (let b = 11; b < 32; b++) v.setUint8(ev + b, 0);
      }
      v.setUint32(neventsPtr, n, true);
      return ESUCCESS;
    },
    /** @param {number} code */
    proc_exit(code) {
      throw new WasiExit(code);
    },
    /** @param {number} ptr @param {number} len */
    random_get(ptr, len) {
      const mem = bytes();
      for (let off = 0; off < len; off += 65536) {
        globalThis.crypto.getRandomValues(mem.subarray(ptr + off, ptr + Math.min(len, off + 65536)));
      }
      return ESUCCESS;
    },
    sched_yield: () => ESUCCESS,
  };
  /** @type {Record<string, Function>} */
  const all = { ...imports };
  if (module) {
    for (const imp of WebAssembly.Module.imports(module)) {
      if (imp.module === "wasi_snapshot_preview1" && imp.kind === "function" && !(imp.name in all)) {
        const errno = imp.name.startsWith("fd_") ? EBADF : ENOSYS;
        all[imp.name] = () => errno;
      }
    }
  }
  return {
    imports: { wasi_snapshot_preview1: all },
    /** @param {WebAssembly.Instance} instance */
    bind(instance) {
      memory = /** @type {WebAssembly.Memory} */ (instance.exports.memory);
    },
  };
}
