// Browser-extension hand-off. The page answers a handshake on
// window.postMessage with a MessageChannel port, then serves describe and
// execute on that port only. js/README.md ("Extension protocol") specifies
// the messages. The page accepts only same-window senders from its own
// origin and never posts with target origin "*".

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

/**
 * exposeToExtension answers extension handshakes for one bridge. At most
 * maxPorts ports are open at once: a handshake beyond that closes the
 * oldest port (it hears {event: "closed", reason: "port_limit"}). A port
 * is released (its snapshot listener removed) when its client closes it,
 * when it disconnects, and on dispose.
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
      if (m.method === "describe") res = await bridge.describe(isObj(m.params) ? m.params : undefined);
      else if (m.method === "execute") res = await bridge.execute(/** @type {any} */ (isObj(m.params) ? m.params : {}));
      else res = errorOf("invalid_request", "unknown method; methods are describe, execute, close", "method");
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
    while (ports.size >= maxPorts) {
      const [release] = ports.values();
      release("port_limit");
    }
    const mc = new MessageChannel();
    serve(mc.port1);
    win.postMessage({ pinhole: "welcome", channel, nonce: d.nonce, v: PROTOCOL_VERSION }, origin, [mc.port2]);
  };
  win.addEventListener("message", onMessage);
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
 * content script (or any same-window script) and returns a client.
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
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      win.removeEventListener("message", onMessage);
      reject(new Error("pinhole extension channel: the page did not answer"));
    }, options.timeoutMs ?? 5000);
    /** @param {MessageEvent} event */
    function onMessage(event) {
      if (event.source !== win || event.origin !== origin) return;
      const d = event.data;
      if (!isObj(d) || d.pinhole !== "welcome" || d.channel !== channel || d.nonce !== nonce) return;
      const port = event.ports && event.ports[0];
      if (!port) return;
      clearTimeout(timer);
      win.removeEventListener("message", onMessage);
      resolve(client(port));
    }
    win.addEventListener("message", onMessage);
    win.postMessage({ pinhole: "hello", channel, nonce, v: PROTOCOL_VERSION }, origin);
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
      closed = true;
      if (m.reason === "port_limit") {
        closedError = errorOf("not_loaded", "the page closed the channel: it keeps a bounded number of open channels and this was the oldest");
      }
      for (const r of pending.values()) r(closedError);
      pending.clear();
      port.close();
    } else if (typeof m.id === "number" && pending.has(m.id)) {
      const r = /** @type {(v: any) => void} */ (pending.get(m.id));
      pending.delete(m.id);
      r(m.result);
    }
  };
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
      closed = true;
      port.postMessage({ id: 0, method: "close" });
      port.close();
    },
  };
}
