// The module's side of a worker-hosted bridge: this script runs in a
// dedicated Web Worker, compiles pinhole.wasm, runs instances with the same
// WASI shim as the page would (module.js, wasi.js) and answers call messages.
// The page keeps the store; it posts only what it would send into the
// module in-thread (host.js): request bytes in, response bytes out, each
// buffer transferred, never copied on the way.
//
// Messages in (from host.js), handled one at a time in order:
//   {t: "init", wasm, stderr, faults}
//                               wasm: a WebAssembly.Module, bytes (ArrayBuffer)
//                               or an absolute URL; answers {t: "ready", module}.
//                               faults: true only from a test's internal hook
//                               (index.js, internals)
//   {t: "open", id}             a new instance (the old one dropped); {t: "done", id}
//   {t: "call", id, request}    request: ArrayBuffer of UTF-8 JSON;
//                               {t: "done", id, response: ArrayBuffer}
//   {t: "fault", id}            overwrite the instance's memory, as a test of
//                               trap recovery does in-thread; {t: "done", id}.
//                               Honoured only when init asked for faults; else
//                               an unknown message
// A call or open that throws (a trap, the Go runtime exiting), or any
// handler that throws, answers {t: "trap", id, name, message} (init:
// {t: "fail", name, message}): the message is the engine's, never a value
// of the request. An unknown message is a protocol fault: it throws
// here, which the page sees as the worker failing.
// Out: {t: "stderr", text} when the page asked for the module's stderr.
import { compileModule, Instance } from "./module.js";

/** @type {any} */
const scope = globalThis;

/** @type {WebAssembly.Module | null} */
let module = null;
/** @type {Instance | null} */
let instance = null;
let stderr = false;
/** Whether init asked for test faults (the fault message). */
let faults = false;
/** Messages run in order: init's compile is asynchronous. */
let queue = Promise.resolve();

/** @param {any} message @param {Transferable[]} [transfer] */
const post = (message, transfer) => scope.postMessage(message, transfer ?? []);

/** @param {MessageEvent} ev */
scope.onmessage = (ev) => {
  const m = ev.data;
  if (!m || typeof m !== "object" || typeof m.t !== "string" || !Object.hasOwn(handlers, m.t) || (m.t === "fault" && !faults)) {
    throw new Error("pinhole worker: unknown message");
  }
  queue = queue.then(() => handlers[/** @type {keyof handlers} */ (m.t)](m)).catch((err) => failed(m, err));
};

/**
 * failed reports a handler that threw outside its own guard (a message it
 * could not post, say) as that message's failure, so the page's call
 * settles and the messages after it are still handled. When even the report
 * cannot be posted, the error is thrown from a task of its own: the page
 * sees the worker fail, and replaces it.
 * @param {any} m @param {unknown} err
 */
function failed(m, err) {
  try {
    if (m.t === "init") post({ t: "fail", name: errName(err), message: errMessage(err) });
    else post({ t: "trap", id: m.id, name: errName(err), message: errMessage(err) });
  } catch {
    setTimeout(() => {
      throw err;
    });
  }
}

const handlers = {
  /** @param {{wasm: any, stderr: boolean, faults: boolean}} m */
  async init(m) {
    stderr = m.stderr === true;
    faults = m.faults === true;
    try {
      module = await compileModule(m.wasm);
      post({ t: "ready", module });
    } catch (err) {
      post({ t: "fail", name: errName(err), message: errMessage(err) });
    }
  },
  /** @param {{id: number}} m */
  open(m) {
    instance = null;
    try {
      if (!module) throw new Error("the worker has no module");
      const io = stderr ? { stderr: (/** @type {string} */ text) => post({ t: "stderr", text }) } : undefined;
      instance = new Instance(module, io);
      post({ t: "done", id: m.id });
    } catch (err) {
      post({ t: "trap", id: m.id, name: errName(err), message: errMessage(err) });
    }
  },
  /** @param {{id: number, request: ArrayBuffer}} m */
  call(m) {
    try {
      if (!instance) throw new Error("the worker has no instance");
      const out = instance.callBytes(new Uint8Array(m.request));
      post({ t: "done", id: m.id, response: out.buffer }, [out.buffer]);
    } catch (err) {
      post({ t: "trap", id: m.id, name: errName(err), message: errMessage(err) });
    }
  },
  /** @param {{id: number}} m */
  fault(m) {
    if (instance) new Uint8Array(instance.exports.memory.buffer).fill(0xff, 0, 1 << 20);
    post({ t: "done", id: m.id });
  },
};

/** @param {unknown} err */
const errName = (err) => (err instanceof Error ? err.name : "Error");
/** @param {unknown} err */
const errMessage = (err) => (err instanceof Error ? err.message : "the module failed");
