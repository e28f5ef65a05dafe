// Where the module runs: the seam between the bridge and pinhole.wasm. A
// host answers open() (a new instance, the old one dropped) and
// call(requestText) → responseText, both asynchronous; a trap rejects.
//
//   MainHost    the instance in this thread (Node; `host: "main"` in a page)
//   WorkerHost  the instance in a dedicated Web Worker (worker.js): compile,
//               instantiate and every call run there; this thread only
//               encodes the request it would have sent anyway, transfers
//               the bytes, and decodes the answer. The default in pages.
//
// The worker script is located the way bundlers understand:
// `new Worker(new URL("./worker.js", import.meta.url), {type: "module"})`
// (Vite and webpack 5 bundle it as a worker entry). A classic-script build
// has no import.meta: the fallback is pinhole-worker.js next to the script
// that loaded the bundle (document.currentScript), as location.js does for
// pinhole.wasm. The `worker` option names it explicitly.
import { Instance, fetchFailed, notWasm, responseName, withoutQuery } from "./module.js";
import { besideScript } from "./location.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * BREATHE_ABOVE is the request length (UTF-16 code units) above which the
 * worker host ends the task between serialising a request and encoding it.
 */
const BREATHE_ABOVE = 1 << 20;

/** @typedef {import('./rooms.js').ModuleHost} ModuleHost */

/**
 * MainHost runs the module in this thread.
 * @implements {ModuleHost}
 */
export class MainHost {
  /**
   * @param {WebAssembly.Module} module
   * @param {{stderr?: (text: string) => void}} [io]
   */
  constructor(module, io) {
    this.kind = /** @type {const} */ ("main");
    this.module = module;
    this.io = io;
    /** @type {Instance | null} */
    this.instance = null;
  }

  async open() {
    this.instance = null;
    this.instance = new Instance(this.module, this.io);
  }

  /** @param {string} text */
  async call(text) {
    if (!this.instance) throw new Error("the module has no instance");
    return this.instance.call(text);
  }

  close() {
    this.instance = null;
  }
}

/** The classic-script fallback's file name, next to the script. */
export const WORKER_FILE = "pinhole-worker.js";

/** @typedef {import('./types.js').HostFallbackCause} HostFallbackCause */

/**
 * A trap or failure in the worker, seen from this thread: `name` is the
 * worker's error name (RuntimeError, WasiExit, …) or "WorkerError" when the
 * worker itself failed. `start` says why a worker could not start, when
 * that is what failed (the bridge's host_fallback event names it).
 */
export class WorkerTrap extends Error {
  /** @param {string} name @param {string} message @param {HostFallbackCause} [start] */
  constructor(name, message, start) {
    super(message);
    this.name = name;
    /** @type {HostFallbackCause | undefined} */
    this.start = start;
  }
}

/** What to check when a worker script does not load or start. */
const WORKER_CHECKS = "check that it is served there as JavaScript (a wrong path, or a server answering " +
  "an HTML page for it, fails here); that it can resolve its imports (a module worker sees neither the " +
  "page's import map nor bare specifiers: bundle @pinholectx/pinhole/worker.js and pass its URL as the " +
  "worker option); and that the page's Content-Security-Policy allows workers (worker-src). " +
  'Or pass host: "main"';

/**
 * scriptName names a worker script in errors: its URL, withoutQuery.
 * @param {string | URL} url
 */
function scriptName(url) {
  let href = String(url);
  try {
    href = new URL(href, globalThis.location?.href).href;
  } catch {
    // a relative location without a base: named as given
  }
  return withoutQuery(href);
}

/**
 * WorkerHost runs the module in a dedicated Web Worker. When the worker
 * itself fails (its script throws, it cannot load, a message cannot be
 * read), every pending call rejects like a trap and the next open() starts
 * a new worker from the compiled module.
 * @implements {ModuleHost}
 */
export class WorkerHost {
  /**
   * start spawns the worker and compiles the module there.
   * @param {import('./types.js').WasmSource | undefined} wasm what to compile (undefined: the packaged copy)
   * @param {{stderr?: (text: string) => void, worker?: string | URL, faults?: boolean, defaultWasm: () => URL | undefined}} o
   * @returns {Promise<WorkerHost>}
   */
  static async start(wasm, o) {
    const h = new WorkerHost(o);
    await h.spawn(await transferable(wasm ?? o.defaultWasm()));
    return h;
  }

  /** @param {{stderr?: (text: string) => void, worker?: string | URL, faults?: boolean}} o faults: a test's internal hook */
  constructor(o) {
    this.kind = /** @type {const} */ ("worker");
    this.o = o;
    /** @type {Worker | null} */
    this.worker = null;
    /** The compiled module, as the worker sent it back (for a new worker). @type {WebAssembly.Module | null} */
    this.module = null;
    this.nextId = 1;
    /** @type {Map<number, {ok: (v: any) => void, fail: (e: Error) => void}>} */
    this.pending = new Map();
    this.closed = false;
  }

  /**
   * What tests and the bench see: the worker and this host; with faults
   * asked for (a test's internal hook), fault() overwrites the instance's memory.
   */
  get instance() {
    if (!this.worker) return null;
    const seen = { host: "worker", worker: this.worker };
    return this.o.faults ? { ...seen, fault: () => this.send({ t: "fault" }) } : seen;
  }

  /**
   * spawn starts a worker and has it compile source; resolves once it is ready.
   * @param {{wasm: any, transfer: Transferable[]}} source
   */
  spawn(source) {
    /** @type {Worker | undefined} */
    let w;
    // The script as errors name it. The package's own is located with the
    // pattern bundlers rewrite, which cannot be read back; a page that
    // serves src/ as it is finds it next to the bridge's host.js.
    let where = "the package's worker script (worker.js next to the bridge's host.js, or the copy your bundler emitted)";
    try {
      if (this.o.worker !== undefined) {
        where = scriptName(this.o.worker);
        w = new Worker(this.o.worker, { type: "module" });
      } else {
        w = packagedWorker((beside) => { where = scriptName(beside); });
      }
    } catch (err) {
      // The browser's message is left out: it may quote the whole URL, a token in its query with it.
      const name = err instanceof Error ? err.name : "an error";
      throw new WorkerTrap("WorkerError", `createPinhole: the worker ${where} could not start (${name}): ${WORKER_CHECKS}`,
        "worker_refused");
    }
    if (!w) {
      throw new WorkerTrap("WorkerError", "createPinhole: this build cannot locate the worker script (no import.meta.url, no " +
        `document.currentScript): pass the worker option, or host: "main"`, "worker_not_located");
    }
    this.worker = w;
    return new Promise((ok, fail) => {
      w.onmessage = (ev) => {
        const m = ev.data;
        if (m?.t === "ready") {
          this.module = m.module;
          w.onmessage = (e) => this.receive(e.data);
          w.onerror = (e) => {
            e.preventDefault?.();
            this.died(w);
          };
          w.onmessageerror = () => this.died(w);
          ok(undefined);
        } else if (m?.t === "fail") {
          this.died(w);
          fail(new WorkerTrap(m.name, m.message));
        }
      };
      w.onerror = (ev) => {
        ev.preventDefault?.();
        this.died(w);
        fail(new WorkerTrap("WorkerError", `createPinhole: the worker script ${where} failed to load or start: ${WORKER_CHECKS}`,
          "worker_load_failed"));
      };
      w.onmessageerror = () => {
        this.died(w);
        fail(new WorkerTrap("WorkerError", "the worker could not read a message", "worker_message_failed"));
      };
      w.postMessage({ t: "init", wasm: source.wasm, stderr: !!this.o.stderr, faults: this.o.faults === true }, source.transfer);
    });
  }

  /** @param {any} m */
  receive(m) {
    if (m?.t === "stderr") {
      if (typeof m.text === "string") this.o.stderr?.(m.text);
      return;
    }
    const p = this.pending.get(m?.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.t === "done") p.ok(m.response);
    else p.fail(new WorkerTrap(typeof m.name === "string" ? m.name : "Error", String(m.message)));
  }

  /**
   * died forgets a failed worker and rejects what waited for it.
   * @param {Worker} w
   */
  died(w) {
    if (this.worker !== w) return;
    w.terminate();
    this.worker = null;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.fail(new WorkerTrap("WorkerError", "the worker failed"));
  }

  /**
   * send posts one message with an id and waits for its answer.
   * @param {Record<string, unknown>} message @param {Transferable[]} [transfer]
   * @returns {Promise<any>}
   */
  send(message, transfer) {
    const w = this.worker;
    if (!w) return Promise.reject(new WorkerTrap("WorkerError", "the worker failed"));
    const id = this.nextId++;
    return new Promise((ok, fail) => {
      this.pending.set(id, { ok, fail });
      w.postMessage({ ...message, id }, transfer ?? []);
    });
  }

  async open() {
    if (this.closed) throw new Error("the module link is closed");
    if (!this.worker) await this.spawn({ wasm: this.module, transfer: [] });
    await this.send({ t: "open" });
  }

  /**
   * breathe ends the current task, so the page can handle input and paint
   * between two long steps of the bridge's own work (reading a large slice,
   * serialising it); the module's work is in the worker already.
   * @returns {Promise<void>}
   */
  breathe() {
    return new Promise((ok) => {
      const c = new MessageChannel();
      c.port1.onmessage = () => {
        c.port1.close();
        ok(undefined);
      };
      c.port2.postMessage(null);
    });
  }

  /**
   * call sends one request. The caller holds the module's lane (Link's
   * exclusive), so requests reach the worker in the order they were made
   * even when a large one waits a task before it is encoded.
   * @param {string} text
   */
  async call(text) {
    if (text.length > BREATHE_ABOVE) {
      // A large request was serialised in this task: encode it in the next,
      // so that neither holds the page much past a long task's 50 ms.
      await this.breathe();
      if (this.closed) throw new Error("the module link is closed");
    }
    const bytes = encoder.encode(text);
    const out = await this.send({ t: "call", request: bytes.buffer }, [bytes.buffer]);
    return decoder.decode(out);
  }

  close() {
    this.closed = true;
    const w = this.worker;
    this.worker = null;
    w?.terminate();
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.fail(new Error("the module link is closed"));
  }
}

/**
 * transferable turns a wasm source into what can be posted to the worker:
 * a Module as it is, bytes as a copy of their own (transferred), a Response
 * as its bytes, a URL or string as an absolute URL the worker fetches and
 * compiles while it downloads.
 * @param {import('./types.js').WasmSource | undefined} wasm
 * @returns {Promise<{wasm: WebAssembly.Module | ArrayBuffer | string, transfer: Transferable[]}>}
 */
async function transferable(wasm) {
  if (wasm === undefined) {
    throw new TypeError("createPinhole: this build cannot locate pinhole.wasm (no import.meta.url, no " +
      "document.currentScript): pass the wasm option, e.g. wasm: \"/pinhole.wasm\"");
  }
  if (wasm instanceof WebAssembly.Module) return { wasm, transfer: [] };
  if (wasm instanceof ArrayBuffer || ArrayBuffer.isView(wasm)) {
    const src = wasm instanceof ArrayBuffer ? new Uint8Array(wasm) : new Uint8Array(wasm.buffer, wasm.byteOffset, wasm.byteLength);
    const copy = src.slice().buffer;
    return { wasm: copy, transfer: [copy] };
  }
  if (typeof Response !== "undefined" && wasm instanceof Response) {
    if (!wasm.ok) throw fetchFailed(wasm);
    const bytes = await wasm.arrayBuffer();
    const wrong = notWasm(new Uint8Array(bytes), responseName(wasm)); // named here: the worker sees bytes only
    if (wrong) throw wrong;
    return { wasm: bytes, transfer: [bytes] };
  }
  if (typeof wasm === "string" || wasm instanceof URL) {
    return { wasm: new URL(String(wasm), globalThis.location?.href).href, transfer: [] };
  }
  throw new TypeError("wasm must be a WebAssembly.Module, bytes, a Response, a URL or a path");
}

/**
 * packagedWorker starts the package's worker script, or answers undefined
 * when this build cannot locate it; a worker that refuses to start throws.
 * @param {(beside: URL) => void} located told the script's URL when it is
 *   the one next to a classic script (the other cannot be read back)
 * @returns {Worker | undefined}
 */
function packagedWorker(located) {
  try {
    // One expression, the pattern bundlers rewrite into a worker bundle.
    return new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  } catch (err) {
    // No import.meta.url (a classic-script build) makes the URL invalid, a
    // TypeError; anything else is the worker refusing to start.
    if (!(err instanceof TypeError)) throw err;
  }
  const beside = besideScript(WORKER_FILE);
  if (!beside) return undefined;
  located(beside);
  return new Worker(beside, { type: "module" });
}

/**
 * defaultHost is where the module runs when createPinhole gets no `host`:
 * a worker in a page that can start one, this thread elsewhere (Node,
 * workers, extensions' service workers).
 * @returns {"worker" | "main"}
 */
export function defaultHost() {
  return typeof globalThis.Worker === "function" && typeof globalThis.document === "object" ? "worker" : "main";
}
