// Browser-extension hand-off. The page answers a handshake on
// window.postMessage with a MessageChannel port, then serves describe and
// execute on that port only. js/README.md ("Extension protocol") specifies
// the messages. The page accepts only same-window senders from its own
// origin and never posts with target origin "*". A client may say hello
// before the page listens (a content script runs at document_idle, often
// before an async createPinhole is done): the page announces itself with
// "ready" when it starts listening, the client says the same hello again
// on it, and the page answers each nonce once.

import { errorOf } from "./errors.js";

/** Protocol version of the extension channel. */
export const PROTOCOL_VERSION = 1;

/** @typedef {import('./types.js').WindowLike} WindowLike */

/** @param {unknown} v @returns {v is Record<string, any>} */
const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** @param {WindowLike | undefined} w @returns {WindowLike} */
function windowOf(w) {
  const win = w ?? /** @type {any} */ (globalThis).window;
  if (!win || typeof win.postMessage !== "function") throw new Error("pinhole extension channel: no window");
  const origin = win.location?.origin;
  if (typeof origin !== "string" || origin === "" || origin === "null") {
    throw new Error("pinhole extension channel: the page has an opaque origin; the channel needs a real origin");
  }
  return win;
}

/** Why exposeToExtension exposed nothing where there is no window. */
const NO_WINDOW = "no window: the extension channel serves a page's window (postMessage); " +
  "here (Node, a worker) there is none, so nothing is exposed";

/** How many ports one exposeToExtension keeps open by default. */
export const DEFAULT_MAX_PORTS = 8;
/** The most ports the maxPorts option may allow. */
export const MAX_PORTS_LIMIT = 1024;
/** How many answered nonces one exposeToExtension remembers (the most recent). */
const REMEMBERED_NONCES = 1024;
/** When the client first says its hello again without a ready; each later time doubles it. */
const FIRST_RESEND_MS = 1000;

/**
 * exposeToExtension answers extension handshakes for one bridge. When it
 * starts listening it posts {pinhole: "ready", channel, v: 1} to its window
 * (target origin its own), so that a client whose hello came too early
 * says it again. It answers each nonce once: a repeated hello (a client's
 * hello that raced this start and its repeat on ready, say) gets no second
 * port. At most maxPorts ports are open at once: a handshake beyond that
 * closes the oldest port (it hears {event: "closed", reason: "port_limit"}).
 * A port is released (its snapshot listener removed) when its client closes
 * it, when it disconnects, and on dispose.
 * Without a window to listen on (Node, a worker) and none passed, it
 * exposes nothing and says why, as exposeWebMCP does without a
 * modelContext; a window passed that cannot serve (no postMessage, an
 * opaque origin) is refused with an error.
 * @param {import('./types.js').AgentSurface} bridge
 * @param {import('./types.js').ExtensionOptions} [options]
 * @returns {import('./types.js').ExtensionHandle}
 */
export function exposeToExtension(bridge, options = {}) {
  const channel = options.channel ?? "pinhole";
  const maxPorts = options.maxPorts ?? DEFAULT_MAX_PORTS;
  if (!Number.isInteger(maxPorts) || maxPorts < 1 || maxPorts > MAX_PORTS_LIMIT) {
    throw new RangeError(`pinhole extension channel: maxPorts is an integer from 1 to ${MAX_PORTS_LIMIT}`);
  }
  const global = /** @type {any} */ (globalThis).window;
  if (options.window == null && (!global || typeof global.postMessage !== "function")) {
    return { exposed: false, reason: NO_WINDOW, dispose() {} };
  }
  const win = windowOf(options.window ?? undefined);
  const origin = win.location.origin;
  /** Open ports, oldest first, each with its release. @type {Map<MessagePort, (reason?: string) => void>} */
  const ports = new Map();
  /** Nonces already answered, oldest first (bounded): a repeat gets nothing. @type {Set<string>} */
  const answered = new Set();
  let disposed = false;

  /** @param {MessagePort} port */
  const serve = (port) => {
    const unsubscribe = bridge.subscribe((ev) => {
      port.postMessage({ event: "snapshot", snapshot: ev.snapshot, recordsTotal: ev.recordsTotal });
    });
    /** release forgets the port, tells its client why (when it may still listen), and closes it. @param {string} [reason] */
    const release = (reason) => {
      if (!ports.delete(port)) return;
      unsubscribe();
      port.onmessage = null;
      port.removeEventListener?.("close", onClose);
      if (reason) {
        try {
          port.postMessage({ event: "closed", reason });
        } catch {
          // already gone
        }
      }
      port.close();
    };
    const onClose = () => release();
    ports.set(port, release);
    // Where the platform reports a disconnected port (Node; recent browsers).
    port.addEventListener?.("close", onClose);
    port.onmessage = async (e) => {
      const m = e.data;
      if (!isObj(m) || !(typeof m.id === "number" || typeof m.id === "string")) return;
      if (m.method === "close") {
        release();
        return;
      }
      let res;
      try {
        if (m.method === "describe") res = await bridge.describe(isObj(m.params) ? m.params : undefined);
        else if (m.method === "execute") res = await bridge.execute(/** @type {any} */ (isObj(m.params) ? m.params : {}));
        else res = errorOf("invalid_request", "unknown method; methods are describe, execute, close", "method");
      } catch {
        // Every request gets an answer; what went wrong stays on the page.
        res = errorOf("internal_error", "the page could not answer this request", "method");
      }
      if (!disposed && ports.has(port)) port.postMessage({ id: m.id, result: res });
    };
  };

  /** @param {MessageEvent} event */
  const onMessage = (event) => {
    if (disposed || event.source !== win || event.origin !== origin) return;
    const d = event.data;
    if (!isObj(d) || d.pinhole !== "hello" || d.channel !== channel) return;
    if (typeof d.nonce !== "string" || d.nonce.length < 8 || d.nonce.length > 128) return;
    if (d.v !== PROTOCOL_VERSION) return; // a client of another protocol version gets nothing
    // A client says its hello again until it is welcomed; answered once, a
    // nonce gets no second port, also after its first port was closed (a
    // repeat still on its way then would open a port nobody takes).
    if (answered.has(d.nonce)) return;
    answered.add(d.nonce);
    if (answered.size > REMEMBERED_NONCES) answered.delete(/** @type {string} */ (answered.values().next().value));
    while (ports.size >= maxPorts) {
      const [release] = ports.values();
      release("port_limit");
    }
    const mc = new MessageChannel();
    serve(mc.port1);
    win.postMessage({ pinhole: "welcome", channel, nonce: d.nonce, v: PROTOCOL_VERSION }, origin, [mc.port2]);
  };
  win.addEventListener("message", onMessage);
  // A client that said hello before this listener existed is waiting: it says it again on this.
  win.postMessage({ pinhole: "ready", channel, v: PROTOCOL_VERSION }, origin);
  return {
    exposed: true,
    dispose() {
      if (disposed) return;
      disposed = true;
      win.removeEventListener("message", onMessage);
      for (const release of [...ports.values()]) release("disposed");
    },
  };
}

/**
 * connectFromContentScript performs the handshake from an extension's
 * content script (or any same-window script) and returns a client. It can
 * be called before the page exposes the channel: it says its hello at once,
 * again (the same nonce) on each "ready" the page posts for its channel,
 * and again after 1 s, 2 s, 4 s, … without one, until a welcome comes or
 * timeoutMs (5000 by default) passes; then it rejects.
 * @param {import('./types.js').ConnectOptions} [options]
 * @returns {Promise<import('./types.js').ExtensionClient>}
 */
export function connectFromContentScript(options = {}) {
  const win = windowOf(options.window);
  const channel = options.channel ?? "pinhole";
  const origin = win.location.origin;
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  const nonce = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const hello = () => win.postMessage({ pinhole: "hello", channel, nonce, v: PROTOCOL_VERSION }, origin);
  return new Promise((resolve, reject) => {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let resend;
    // done: answered or timed out. A window that delivers synchronously
    // can answer inside hello(), before later() arms the next repeat.
    let done = false;
    const stop = () => {
      done = true;
      clearTimeout(timer);
      clearTimeout(resend);
      win.removeEventListener("message", onMessage);
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error("pinhole extension channel: the page did not answer"));
    }, options.timeoutMs ?? 5000);
    // The page's ready is what brings a hello that came too early again:
    // this listener is in place before the first hello, so a page that
    // starts listening later is seen doing so. The timed repeats are for a
    // page whose bridge predates ready (it answers only a hello that comes
    // after it listens). Doubling keeps them few (two in the default 5 s)
    // and bounded by the timeout; the page ignores a nonce it answered.
    /** @param {number} ms */
    const later = (ms) => {
      if (done) return;
      resend = setTimeout(() => {
        hello();
        later(ms * 2);
      }, ms);
    };
    /** @param {MessageEvent} event */
    function onMessage(event) {
      if (event.source !== win || event.origin !== origin) return;
      const d = event.data;
      if (!isObj(d) || d.channel !== channel) return;
      if (d.pinhole === "ready") {
        if (d.v === PROTOCOL_VERSION) hello();
        return;
      }
      if (d.pinhole !== "welcome" || d.nonce !== nonce) return;
      const port = event.ports && event.ports[0];
      if (!port) return;
      stop();
      resolve(client(port));
    }
    win.addEventListener("message", onMessage);
    hello();
    later(FIRST_RESEND_MS);
  });
}

/**
 * @param {MessagePort} port
 * @returns {import('./types.js').ExtensionClient}
 */
function client(port) {
  let next = 1;
  /** @type {Map<number, (v: any) => void>} */
  const pending = new Map();
  /** @type {Set<(e: import('./types.js').SnapshotEvent) => void>} */
  const listeners = new Set();
  let closed = false;
  let closedError = errorOf("not_loaded", "the page closed the channel");
  port.onmessage = (e) => {
    const m = e.data;
    if (!isObj(m)) return;
    if (m.event === "snapshot") {
      for (const l of [...listeners]) l({ snapshot: m.snapshot, recordsTotal: m.recordsTotal });
    } else if (m.event === "closed") {
      if (m.reason === "port_limit") {
        closedError = errorOf("not_loaded", "the page closed the channel: it keeps a bounded number of open channels and this was the oldest");
      }
      end();
    } else if (typeof m.id === "number" && pending.has(m.id)) {
      const r = /** @type {(v: any) => void} */ (pending.get(m.id));
      pending.delete(m.id);
      r(m.result);
    }
  };
  /** end settles what is pending with closedError and closes the port. */
  const end = () => {
    closed = true;
    for (const r of pending.values()) r(closedError);
    pending.clear();
    port.removeEventListener?.("close", onGone);
    port.close();
  };
  // A page that went away (navigated, closed, crashed) sends no "closed":
  // where the platform reports a disconnected port (Node, recent
  // browsers), what is pending is settled instead of waiting for ever.
  const onGone = () => {
    if (closed) return;
    closedError = errorOf("not_loaded", "the page went away");
    end();
  };
  port.addEventListener?.("close", onGone);
  /** @param {string} method @param {unknown} params */
  const ask = (method, params) =>
    new Promise((resolve) => {
      if (closed) return resolve(closedError);
      const id = next++;
      pending.set(id, resolve);
      port.postMessage({ id, method, params });
    });
  return {
    describe: (request) => /** @type {Promise<any>} */ (ask("describe", request ?? {})),
    execute: (request) => /** @type {Promise<any>} */ (ask("execute", request)),
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    close() {
      if (closed) return;
      port.postMessage({ id: 0, method: "close" });
      closedError = errorOf("not_loaded", "this client closed the channel");
      end();
    },
  };
}
