// @pinholectx/pinhole: the JavaScript bridge between an app's frontend store
// and pinhole.wasm (docs/context-model.md). createPinhole loads the module, keeps its
// snapshot in step with the store (reading only declared paths, sending a
// JSON Patch when it can), and answers agents: describe, execute, subscribe.
// This entry point depends on no framework; store adapters live in
// ./adapters, the agent hand-offs in ./webmcp.js and ./extension.js. The
// bridge itself is a few rooms wired here (rooms.ts says what each holds):
// link.js, recovery.js, sync.js, audit.js and execute.js. Where the module
// runs (this thread or a Web Worker) is host.js's business.
import { compileModule, compilingAt, Instance } from "./module.js";
import { defaultWasm } from "./location.js";
import { MainHost, WorkerHost, defaultHost } from "./host.js";
import { Link } from "./link.js";
import { Audit } from "./audit.js";
import { Recovery } from "./recovery.js";
import { Sync } from "./sync.js";
import { Agent, handlerOf, manifestText, namesIn } from "./execute.js";
import { exposeWebMCP } from "./webmcp.js";
import { exposeToExtension } from "./extension.js";
import { errorOf, PinholeSetupError } from "./errors.js";

export { compileModule } from "./module.js";
export { connectFromContentScript } from "./extension.js";
export { errorOf, ERROR_CODES, PinholeSetupError } from "./errors.js";
export { DEFAULT_MAX_PATCH_OPS } from "./sync.js";

// The public types, declared once in types.ts.
/** @typedef {import('./types.js').PinholeOptions} PinholeOptions */
/** @typedef {import('./types.js').Pinhole} Pinhole */
/** @typedef {import('./types.js').PinholeState} PinholeState */
/** @typedef {import('./types.js').PinholeError} PinholeError */
/** @typedef {import('./types.js').AuditEvent} AuditEvent */
/** @typedef {import('./types.js').HostFallbackCause} HostFallbackCause */
/** @typedef {import('./types.js').WasmSource} WasmSource */
/** @typedef {import('./types.js').JSONValue} JSONValue */
/** @typedef {import('./types.js').Reads} Reads */
/** @typedef {import('./types.js').Limits} Limits */
/** @typedef {import('./types.js').DescribeRequest} DescribeRequest */
/** @typedef {import('./types.js').Capability} Capability */
/** @typedef {import('./types.js').ContextRecord} ContextRecord */
/** @typedef {import('./types.js').DescribeResponse} DescribeResponse */
/** @typedef {import('./types.js').ExecuteRequest} ExecuteRequest */
/** @typedef {import('./types.js').ResolvedRequest} ResolvedRequest */
/** @typedef {import('./types.js').After} After */
/** @typedef {import('./types.js').ExecuteResult} ExecuteResult */
/** @typedef {import('./types.js').Actions} Actions */
/** @typedef {import('./types.js').SnapshotEvent} SnapshotEvent */
/** @typedef {import('./types.js').WebMCPOptions} WebMCPOptions */
/** @typedef {import('./types.js').WebMCPHandle} WebMCPHandle */
/** @typedef {import('./types.js').WebMCPTool} WebMCPTool */
/** @typedef {import('./types.js').ModelContextLike} ModelContextLike */
/** @typedef {import('./types.js').ExtensionOptions} ExtensionOptions */
/** @typedef {import('./types.js').ConnectOptions} ConnectOptions */
/** @typedef {import('./types.js').ExtensionClient} ExtensionClient */
/** @typedef {import('./types.js').WindowLike} WindowLike */
/** @typedef {import('./types.js').ModuleInstance} ModuleInstance */
/** @typedef {import('./types.js').ErrorCode} ErrorCode */
/** @typedef {import('./types.js').AgentSurface} AgentSurface */
/**
 * @template [S=unknown]
 * @typedef {import('./types.js').StoreLike<S>} StoreLike
 */

const OPTION_KEYS = new Set(["wasm", "manifest", "store", "actions", "key", "onAudit", "onActionError",
  "coalesce", "maxPatchOps", "trace", "stderr", "host", "worker"]);

/**
 * createModuleInstance compiles (when needed) and starts one bare module
 * instance: JSON text in, JSON text out, no store. The conformance vectors
 * are replayed through it.
 * @param {import('./types.js').WasmSource} wasm
 * @returns {Promise<import('./types.js').ModuleInstance>}
 */
export async function createModuleInstance(wasm) {
  return new Instance(await compileModule(wasm));
}

/**
 * preloadPinhole starts fetching and compiling the module now (with
 * `WebAssembly.compileStreaming` when the response is `application/wasm`),
 * so that it overlaps with the rest of the app's start-up; call it as early
 * as possible, before the app builds its store. createPinhole given the same
 * location (or none, for both) uses this compilation instead of starting
 * another. Without an argument: the module next to the bridge.
 * @param {string | URL} [wasm]
 * @returns {Promise<WebAssembly.Module>}
 */
export function preloadPinhole(wasm) {
  const where = wasm ?? defaultWasm();
  if (where === undefined) {
    return Promise.reject(new TypeError("preloadPinhole: this build cannot locate pinhole.wasm (no import.meta.url, " +
      "no document.currentScript): pass its URL"));
  }
  return compileModule(where);
}

/**
 * createPinhole starts a bridge: it loads pinhole.wasm, loads the manifest,
 * observes the store's declared slice and follows the store from then on.
 * @param {PinholeOptions} options
 * @returns {Promise<Pinhole>}
 */
export async function createPinhole(options) {
  if (!options || typeof options !== "object") throw new TypeError("createPinhole needs an options object");
  for (const k of Object.keys(options)) {
    if (!OPTION_KEYS.has(k)) throw new TypeError(`createPinhole: unknown option ${JSON.stringify(k)}`);
  }
  const { store } = options;
  if (!store || typeof store.getState !== "function" || typeof store.subscribe !== "function") {
    throw new TypeError("createPinhole: store must have getState() and subscribe(listener); use an adapter");
  }
  if (options.coalesce !== undefined && options.coalesce !== "microtask" && options.coalesce !== "frame") {
    throw new TypeError('createPinhole: coalesce is "microtask" or "frame"');
  }
  if (options.host !== undefined && options.host !== "worker" && options.host !== "main") {
    throw new TypeError('createPinhole: host is "worker" or "main"');
  }
  // Read once: the app may change its manifest object meanwhile.
  const { text, parsed } = checkManifestOption(options.manifest);
  const declared = namesIn(parsed);
  checkActionsOption(options.actions, declared);
  const { host, fallback } = await startHost(options);
  const m = /** @type {any} */ (parsed);
  const scope = m !== null && typeof m === "object" && typeof m.sessionScope === "string" ? m.sessionScope : undefined;
  try {
    return await Bridge.start(host, options, fallback, text, declared, scope);
  } catch (err) {
    host.close();
    throw err;
  }
}

/**
 * checkManifestOption refuses a manifest that is neither an object nor JSON
 * text before anything starts (a file path passed as the manifest would
 * otherwise be reported as a malformed load request), and returns its text
 * and the value it parses to.
 * @param {unknown} manifest
 * @returns {{text: string, parsed: unknown}}
 */
function checkManifestOption(manifest) {
  if (manifest === null || typeof manifest !== "object" && typeof manifest !== "string" || Array.isArray(manifest)) {
    throw new TypeError("createPinhole: manifest is the manifest object or its JSON text");
  }
  const text = manifestText(manifest);
  try {
    return { text, parsed: JSON.parse(text) };
  } catch (err) {
    throw new PinholeSetupError(errorOf("invalid_manifest",
      `the manifest text is not JSON (${err instanceof Error ? err.message : String(err)}): pass the manifest ` +
      "object or its JSON text (a file path is neither)", "manifest"));
  }
}

/**
 * checkActionsOption checks, before anything starts, that actions, when
 * given, is an object whose own entries under the manifest's capability
 * names are functions: its handlers may also be inherited (a class's
 * methods), and what else it holds is the app's.
 * @param {unknown} actions @param {string[]} declared
 */
function checkActionsOption(actions, declared) {
  if (actions === undefined) return;
  if (actions === null || typeof actions !== "object" && typeof actions !== "function" || Array.isArray(actions)) {
    throw new TypeError("createPinhole: actions is an object of handlers by capability name");
  }
  // A function's own name, length and prototype are every function's, not the app's entries.
  const builtIn = typeof actions === "function" ? Object.getOwnPropertyNames(function f() {}) : [];
  for (const n of declared) {
    if (Object.hasOwn(actions, n) && !builtIn.includes(n) && typeof (/** @type {any} */ (actions))[n] !== "function") {
      throw new TypeError(`createPinhole: actions[${JSON.stringify(n)}] is not a function`);
    }
  }
}

/**
 * nearMiss returns the declared name a handler's name is most likely a
 * typo of (the same letters and digits, or one edit apart), or undefined.
 * @param {string} name @param {string[]} declared
 */
function nearMiss(name, declared) {
  const fold = (/** @type {string} */ s) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
  return declared.find((d) => fold(d) === fold(name) || editDistance(d, name) <= 1);
}

/**
 * editDistance counts the insertions, deletions and substitutions that
 * turn a into b (names are short).
 * @param {string} a @param {string} b
 */
function editDistance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

/** Whether this page was told that the module fell back to its thread. */
let fallbackWarned = false;

/**
 * warnFallback says once per page, on the console, that the module runs in
 * the page's thread although the bridge tried a worker: the app may not
 * watch onAudit, and the page then blocks while the module works.
 * @param {HostFallbackCause} cause
 */
function warnFallback(cause) {
  if (fallbackWarned) return;
  fallbackWarned = true;
  console.warn(`pinhole: the module runs in the page's thread because its worker could not start (${cause}); ` +
    `host: "worker" says why, host: "main" chooses this thread and silences this warning`);
}

/**
 * startHost starts where the module runs: a Web Worker by default in a page
 * (this thread when the worker script cannot be loaded and `host` was not
 * asked for: then `fallback` says why, for the bridge's host_fallback
 * audit event), this thread elsewhere or with host: "main".
 * @param {PinholeOptions} o
 * @returns {Promise<{host: MainHost | WorkerHost, fallback?: HostFallbackCause}>}
 */
async function startHost(o) {
  const io = o.stderr ? { stderr: o.stderr } : undefined;
  let fallback = o.wasm;
  /** @type {HostFallbackCause | undefined} */
  let cause;
  if ((o.host ?? defaultHost()) === "worker") {
    // A compilation preloadPinhole started for this location is handed to
    // the worker as a Module instead of being fetched and compiled again.
    let wasm = o.wasm;
    const pending = wasm === undefined || typeof wasm === "string" || wasm instanceof URL
      ? compilingAt(wasm ?? defaultWasm()) : undefined;
    if (pending) wasm = await pending;
    // The worker reads a Response's body before it is known to start: the
    // fallback to this thread compiles a copy of it.
    if (o.host === undefined && typeof Response !== "undefined" && wasm instanceof Response) fallback = wasm.clone();
    try {
      const faults = /** @type {any} */ (o)[internals]?.faults === true;
      return { host: await WorkerHost.start(wasm, { stderr: o.stderr, worker: o.worker, faults, defaultWasm }) };
    } catch (err) {
      // Only a worker that cannot start falls back; a module that does not compile fails here as it would in-thread.
      if (o.host === "worker" || /** @type {any} */ (err)?.name !== "WorkerError") throw err;
      cause = /** @type {import('./host.js').WorkerTrap} */ (err).start ?? "worker_load_failed";
    }
  }
  const module = fallback !== undefined ? await compileModule(fallback) : await compilePackaged();
  return { host: new MainHost(module, io), fallback: cause };
}

/**
 * Bridge is the running bridge: it wires the rooms (rooms.ts) and answers
 * the public API.
 * @implements {Pinhole}
 * @implements {AgentSurface}
 */
class Bridge {
  /**
   * start loads the manifest, observes the store and follows it; a host
   * that is this thread only because the worker could not start is
   * reported first (host_fallback, with why).
   * @param {MainHost | WorkerHost} host @param {PinholeOptions} o
   * @param {HostFallbackCause | undefined} fallback
   * @param {string} text the manifest's text @param {string[]} declared its capabilities' names
   * @param {string} [scope] its sessionScope
   */
  static async start(host, o, fallback, text, declared, scope) {
    const link = new Link(host, {
      manifestText: text,
      key: o.key ?? randomKey(),
      trace: o.trace,
      stderr: o.stderr,
    });
    const loaded = await link.exclusive(() => link.open());
    const b = new Bridge(link, loaded, o, scope);
    if (fallback) {
      b.audit.emit({ source: "bridge", kind: "host_fallback", cause: fallback });
      warnFallback(fallback);
    }
    b.checkActions(declared);
    await b.sync.start();
    await b.audit.drain();
    return b;
  }

  /**
   * @param {Link} link @param {import('./rooms.js').LoadAnswer} loaded
   * @param {PinholeOptions} o @param {string} [scope] the manifest's sessionScope
   */
  constructor(link, loaded, o, scope) {
    this.disposed = false;
    /** @type {Set<{dispose(): void}>} */
    this.handles = new Set();
    this.link = link;
    /** Where the module runs: "worker" or "main". */
    this.host = link.host.kind;
    /** The bounds of the loaded manifest. @type {Limits} */
    this.limits = loaded.limits;
    /** The app's handlers, by capability name. @type {object} */
    this.actions = o.actions ?? {};
    this.audit = new Audit(o.onAudit, this.link);
    this.recovery = new Recovery(this.link, this.audit);
    this.sync = new Sync({
      store: o.store, reads: loaded.reads, caller: this.recovery, audit: this.audit,
      coalesce: o.coalesce, maxPatchOps: o.maxPatchOps, scope,
    });
    this.recovery.restoreFrom(this.sync);
    this.agent = new Agent({
      sync: this.sync, caller: this.recovery, audit: this.audit,
      actions: this.actions, onActionError: o.onActionError, closed: () => this.disposed,
    });
  }

  /**
   * checkActions compares the handlers given with the manifest's
   * capabilities (checkActionsOption has refused entries that are not
   * functions), in one audit event: handlers under names the manifest does
   * not declare (one app-wide actions object shared by several manifests
   * has them), and capabilities without a handler (an agent's execute of
   * one answers unknown_capability, and exposeWebMCP does not offer it). A
   * handler named one edit away from a capability without one is a typo,
   * most likely: that is also a console warning.
   * @param {string[]} declared
   */
  checkActions(declared) {
    // Own entries only: a class's other methods are the app's helpers, not handlers.
    const given = Object.keys(this.actions).filter((n) => typeof Object.getOwnPropertyDescriptor(this.actions, n)?.value === "function");
    const undeclared = given.filter((n) => !declared.includes(n));
    const unhandled = declared.filter((n) => !this.hasAction(n));
    if (undeclared.length === 0 && unhandled.length === 0) return;
    this.audit.emit({ source: "bridge", kind: "actions", undeclared, unhandled });
    for (const n of undeclared) {
      const meant = nearMiss(n, unhandled);
      if (meant) console.warn(`pinhole: actions has ${JSON.stringify(n)}, which the manifest does not declare: did you mean ${JSON.stringify(meant)}?`);
    }
  }

  /** hasAction reports whether the app gave a handler for the capability. @param {string} capability */
  hasAction(capability) {
    return handlerOf(this.actions, capability) !== undefined;
  }

  /** flush syncs now when the store changed since the last sync. */
  async flush() {
    if (!this.disposed) await this.sync.flush();
  }

  /** @param {DescribeRequest} [request] */
  async describeText(request) {
    return this.agent.describeText(request);
  }

  /** @param {DescribeRequest} [request] */
  async describe(request) {
    return this.agent.describe(request);
  }

  /**
   * @param {ExecuteRequest} request
   * @returns {Promise<ExecuteResult | PinholeError>}
   */
  async execute(request) {
    return this.agent.execute(request);
  }

  /** @param {(e: SnapshotEvent) => void} listener */
  subscribe(listener) {
    return this.sync.subscribe(listener);
  }

  /** @param {WebMCPOptions} [options] */
  exposeWebMCP(options) {
    return this.own(exposeWebMCP(this, options));
  }

  /** @param {ExtensionOptions} [options] */
  exposeToExtension(options) {
    return this.own(exposeToExtension(this, options));
  }

  /**
   * @template {{dispose(): void}} H
   * @param {H} h
   * @returns {H}
   */
  own(h) {
    this.handles.add(h);
    const d = h.dispose.bind(h);
    h.dispose = () => {
      this.handles.delete(h);
      d();
    };
    return h;
  }

  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.sync.stop();
    for (const h of [...this.handles]) h.dispose();
    this.link.close();
  }
}

/**
 * compilePackaged compiles the default `wasm`: the copy in the package,
 * located the way bundlers understand (location.js). A missing file says
 * what to do instead of a bare ENOENT.
 * @returns {Promise<WebAssembly.Module>}
 */
async function compilePackaged() {
  const url = defaultWasm();
  if (!url) {
    throw new TypeError("createPinhole: this build cannot locate pinhole.wasm (no import.meta.url, no " +
      "document.currentScript): pass the wasm option, e.g. wasm: \"/pinhole.wasm\"");
  }
  try {
    return await compileModule(url);
  } catch (err) {
    if (/** @type {any} */ (err)?.code !== "ENOENT") throw err;
    throw new Error("createPinhole: the package has no pinhole.wasm: install the packed tarball " +
      "(make pack builds it) or pass the wasm option", { cause: err });
  }
}

/** A 32-byte random session key as 64 hex characters. */
function randomKey() {
  const b = new Uint8Array(32);
  globalThis.crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/**
 * Symbol under which tests reach the current module instance. It is also a
 * test-only option key, never documented: createPinhole({..., [internals]:
 * {faults: true}}) lets a worker-hosted bridge's instance.fault() overwrite
 * the module's memory, to test trap recovery; without it the worker treats
 * that message as unknown.
 */
export const internals = Symbol.for("pinhole.internals");
Object.defineProperty(Bridge.prototype, internals, {
  get() {
    return { instance: this.link.instance, host: this.link.host.kind, slice: () => this.sync.prevOut };
  },
});
