// The low-level module: compile pinhole.wasm once, instantiate it with the
// WASI shim, and make JSON calls through its ABI (docs/protocol.md#the-modules-abi):
// ptr = pinhole_alloc(len); write; packed = pinhole_call(ptr, len);
// read ptr<<32|len; pinhole_free(ptr).
import { createWasi } from "./wasi.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * compileModule turns any accepted wasm source into a WebAssembly.Module:
 * a Module, bytes (ArrayBuffer or a typed array), a Response (streamed when
 * the runtime can), a URL, or a string (a file path in Node, a URL in a
 * browser).
 * @param {import('./types.js').WasmSource} wasm
 * @returns {Promise<WebAssembly.Module>}
 */
export async function compileModule(wasm) {
  if (wasm instanceof WebAssembly.Module) return wasm;
  if (wasm instanceof ArrayBuffer || ArrayBuffer.isView(wasm)) return compileBytes(wasm, "the wasm bytes given");
  if (typeof Response !== "undefined" && wasm instanceof Response) {
    if (!wasm.ok) throw fetchFailed(wasm);
    const type = wasm.headers.get("content-type") || "";
    if (typeof WebAssembly.compileStreaming === "function" && type.startsWith("application/wasm")) {
      return WebAssembly.compileStreaming(wasm);
    }
    return compileBytes(await wasm.arrayBuffer(), responseName(wasm));
  }
  if (typeof wasm === "string" || wasm instanceof URL) return compileLocation(wasm);
  throw new TypeError("wasm must be a WebAssembly.Module, bytes, a Response, a URL or a path");
}

/**
 * withoutQuery is a URL as errors name it: without query or fragment, so
 * that a signed URL's token stays out of errors apps may log.
 * @param {string} href
 */
export function withoutQuery(href) {
  return href.replace(/[?#].*$/s, "");
}

/**
 * responseName names a response in errors: its URL (withoutQuery) and its
 * content type.
 * @param {Response} r
 */
export function responseName(r) {
  const type = r.headers.get("content-type");
  const url = r.url ? withoutQuery(r.url) : "the response";
  return `${url}${type ? ` (content-type ${type})` : ""}`;
}

/**
 * compileBytes compiles a module's bytes, refusing bytes that are not
 * WebAssembly at all with an error that says what they are: most often the
 * HTML page a server or a dev server answers for a file it does not have,
 * where WebAssembly.compile would only say "expected magic word".
 * @param {ArrayBuffer | ArrayBufferView} bytes
 * @param {string} from where the bytes came from, for the error
 * @returns {Promise<WebAssembly.Module>}
 */
export function compileBytes(bytes, from) {
  const b = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const wrong = notWasm(b, from);
  return wrong ? Promise.reject(wrong) : WebAssembly.compile(/** @type {BufferSource} */ (b));
}

/**
 * notWasm returns the error for bytes that are not WebAssembly, or null.
 * @param {Uint8Array} b
 * @param {string} from where the bytes came from, for the error
 * @returns {Error | null}
 */
export function notWasm(b, from) {
  if (b.length >= 4 && b[0] === 0x00 && b[1] === 0x61 && b[2] === 0x73 && b[3] === 0x6d) return null;
  // ASCII as it is, control characters escaped by JSON.stringify (a page's
  // "\n" reads as one), anything else as "?".
  const head = decoder.decode(b.subarray(0, 16)).replace(/[^\x00-\x7e]/g, "?");
  return new Error(`pinhole.wasm: ${from} is not WebAssembly: it starts ${JSON.stringify(head)} instead of ` +
    `"\\0asm" (a server's page for a file it does not have?). ${WHERE}${viteHint(from)}`);
}

const WHERE = "If you pass the wasm option, check where it points; without it the package's own " +
  "pinhole.wasm is used, so check that your server or bundler serves it";

/**
 * viteHint is what to do when the module was looked for in Vite's
 * pre-bundle folder: Vite 7 and earlier copy the bridge there for the
 * dev server, away from its pinhole.wasm and worker.
 * @param {string} from
 */
const viteHint = (from) =>
  from.includes("/node_modules/.vite/")
    ? `. The URL is in Vite's pre-bundle folder: add optimizeDeps: { exclude: ["@pinholectx/pinhole"] } to vite.config.js`
    : "";

/**
 * fetchFailed is the error of a response that is not ok: its status and
 * URL, and where to look.
 * @param {Response} r
 */
export function fetchFailed(r) {
  const from = responseName(r);
  return new Error(`fetching pinhole.wasm failed with status ${r.status}: ${from}. ${WHERE}${viteHint(from)}`);
}

/**
 * Compilations of a location, by its text: the first call for a location
 * starts fetching and compiling it, later calls (a preloadPinhole, then
 * createPinhole; a second bridge on the page) share that compilation. A
 * failed one is forgotten, so the next call tries again.
 * @type {Map<string, Promise<WebAssembly.Module>>}
 */
const compiling = new Map();

/**
 * compilingAt returns the compilation already started for a location, if
 * any (a preloadPinhole), without starting one.
 * @param {string | URL | undefined} where
 * @returns {Promise<WebAssembly.Module> | undefined}
 */
export function compilingAt(where) {
  return where === undefined ? undefined : compiling.get(String(where));
}

/**
 * Whether this is Node (or a runtime that says it is, as Deno and Bun do):
 * there a path or a file: URL names a file on disk. Decided at run time, so
 * the same sources run unbundled in a page and in its workers (no package
 * "imports" alias, which import maps and workers cannot resolve).
 */
const inNode = typeof process === "object" && typeof process?.versions?.node === "string";

/**
 * Node's file reading, imported only in Node: the specifier is a variable,
 * and the comments tell webpack and Vite to leave the import alone, so no
 * bundler resolves, bundles or warns about it in a browser build.
 */
const FS = "node:fs/promises";

/**
 * readLocal returns the bytes of a local wasm file in Node, or undefined
 * when fetch should handle the location: always in a browser or a worker,
 * in Node for http: and https: URLs, and where a runtime that says it is
 * Node cannot import its fs (a page with a process shim).
 * @param {string | URL} where
 * @returns {Promise<Uint8Array | undefined>}
 */
async function readLocal(where) {
  if (!inNode) return undefined;
  const s = String(where);
  if (/^https?:/i.test(s)) return undefined;
  /** @type {typeof import("node:fs/promises")} */
  let fs;
  try {
    fs = await import(/* webpackIgnore: true */ /* @vite-ignore */ FS);
  } catch {
    return undefined;
  }
  const file = where instanceof URL || s.startsWith("file:") ? new URL(s) : s;
  try {
    return await fs.readFile(file);
  } catch (err) {
    const code = /** @type {any} */ (err)?.code;
    // The code stays on the error: the package's own location reports a missing file its own way (index.js).
    const relative = typeof file === "string" && !/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(file);
    const advice = relative
      ? `a relative path is read from the working directory (${process.cwd()}): pass wasm as an absolute path or a file: URL, or leave it out for the package's own pinhole.wasm`
      : code === "ENOENT" ? "no such file: check the wasm option (leave it out for the package's own pinhole.wasm)" : "check that the file can be read";
    throw Object.assign(new Error(`pinhole.wasm: cannot read ${s}${code ? ` (${code})` : ""}; ${advice}`, { cause: err }), { code });
  }
}

/** @param {string | URL} where */
function compileLocation(where) {
  const key = String(where);
  let p = compiling.get(key);
  if (!p) {
    p = (async () => {
      const local = await readLocal(where);
      if (local) return compileBytes(local, key);
      return compileModule(await fetch(where));
    })();
    compiling.set(key, p);
    p.catch(() => compiling.delete(key));
  }
  return p;
}

/**
 * Instance is one running module: one session (manifest, snapshots, audit
 * queue). call() is synchronous; a trap surfaces as a thrown error and
 * leaves the instance unusable (see Instance.broken).
 */
export class Instance {
  /**
   * @param {WebAssembly.Module} module
   * @param {{stdout?: (t: string) => void, stderr?: (t: string) => void}} [io]
   */
  constructor(module, io) {
    const wasi = createWasi(io, module);
    const instance = new WebAssembly.Instance(module, wasi.imports);
    wasi.bind(instance);
    /** @type {any} */
    const ex = instance.exports;
    this.exports = ex;
    /** True once a call trapped: the instance must be replaced. */
    this.broken = false;
    try {
      ex._initialize();
    } catch (err) {
      this.broken = true;
      throw err;
    }
  }

  /**
   * call sends one request (a string or UTF-8 bytes) and returns the
   * response text.
   * @param {string | Uint8Array} request
   * @returns {string}
   */
  call(request) {
    return this.exchange(request, (view) => decoder.decode(view));
  }

  /**
   * callBytes is call answering the response's UTF-8 bytes, copied out of
   * the module's memory into a buffer of their own (one that can be
   * transferred to another thread).
   * @param {string | Uint8Array} request
   * @returns {Uint8Array}
   */
  callBytes(request) {
    return this.exchange(request, (view) => view.slice());
  }

  /**
   * @template T
   * @param {string | Uint8Array} request
   * @param {(response: Uint8Array) => T} read reads the response in place
   * @returns {T}
   */
  exchange(request, read) {
    if (this.broken) throw new Error("the module instance trapped earlier and cannot be used");
    const ex = this.exports;
    const req = typeof request === "string" ? encoder.encode(request) : request;
    try {
      const ptr = ex.pinhole_alloc(req.length) >>> 0;
      new Uint8Array(ex.memory.buffer, ptr, req.length).set(req);
      const packed = BigInt.asUintN(64, ex.pinhole_call(ptr, req.length));
      const rptr = Number(packed >> 32n);
      const rlen = Number(packed & 0xffffffffn);
      const out = read(new Uint8Array(ex.memory.buffer, rptr, rlen));
      ex.pinhole_free(ptr);
      return out;
    } catch (err) {
      this.broken = true;
      throw err;
    }
  }
}
