// @pinholectx/pinhole: the JavaScript bridge between an app's frontend store
// and pinhole.wasm (DESIGN §1). createPinhole loads the module, keeps its
// snapshot in step with the store (reading only declared paths, sending a
// JSON Patch when it can), and answers agents: describe, execute, subscribe.
// This entry point depends on no framework; store adapters live in
// ./adapters, the agent hand-offs in ./webmcp.js and ./extension.js.
import { compileModule, Instance } from "./module.js";
import { buildReadTree, Pruner, NONE, BoundaryError } from "./reads.js";
import { diff } from "./diff.js";
import { exposeWebMCP } from "./webmcp.js";
import { exposeToExtension } from "./extension.js";

export { compileModule } from "./module.js";
export { connectFromContentScript } from "./extension.js";

// The public types, declared once in types.ts.
/** @typedef {import('./types.js').PinholeOptions} PinholeOptions */
/** @typedef {import('./types.js').Pinhole} Pinhole */
/** @typedef {import('./types.js').PinholeError} PinholeError */
/** @typedef {import('./types.js').AuditEvent} AuditEvent */
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
/**
 * @template [S=unknown]
 * @typedef {import('./types.js').StoreLike<S>} StoreLike
 */

const OPTION_KEYS = new Set(["wasm", "manifest", "store", "actions", "key", "onAudit", "onActionError",
  "coalesce", "maxPatchOps", "trace", "stderr"]);

/** Distinct boundary warnings reported before the rest are only counted. */
const MAX_WARNINGS = 100;

/** The default patch budget: beyond this many operations a full observe is sent. */
export const DEFAULT_MAX_PATCH_OPS = 512;

/**
 * errorOf builds a DESIGN error object.
 * @param {string} code @param {string} message @param {string} [param]
 * @returns {PinholeError}
 */
export function errorOf(code, message, param) {
  return { error: param === undefined ? { code, message } : { code, message, param } };
}

/** Thrown by createPinhole when the module rejects the manifest or the key. */
export class PinholeSetupError extends Error {
  /** @param {PinholeError} err */
  constructor(err) {
    super(`pinhole: ${err.error.code}: ${err.error.message}`);
    this.name = "PinholeSetupError";
    this.error = err.error;
  }
}

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
  const module = await compileModule(options.wasm ?? new URL("../pinhole.wasm", import.meta.url));
  return new Bridge(module, options);
}

/** @param {string} id */
const seqOf = (id) => (typeof id === "string" && /^s[0-9]+$/.test(id) ? Number(id.slice(1)) : -1);

/** @implements {Pinhole} */
class Bridge {
  /** @param {WebAssembly.Module} module @param {PinholeOptions} o */
  constructor(module, o) {
    this.module = module;
    this.o = o;
    this.store = o.store;
    this.actions = o.actions || {};
    this.trust = !o.store.mutable;
    this.maxPatchOps = o.maxPatchOps ?? DEFAULT_MAX_PATCH_OPS;
    this.manifestText = typeof o.manifest === "string" ? o.manifest : JSON.stringify(o.manifest);
    this.key = o.key ?? randomKey();
    /** @type {Set<(e: import('./types.js').SnapshotEvent) => void>} */
    this.listeners = new Set();
    /** @type {Set<{dispose(): void}>} */
    this.handles = new Set();
    this.warned = new Set();
    this.suppressed = 0;
    this.disposed = false;
    this.dirty = false;
    this.scheduled = false;
    this.patchUnsupported = false;
    /** Module snapshot numbers handed out by instances that trapped. */
    this.seqOffset = 0;
    this.maxSeq = 0;
    this.snapshot = "";
    this.recordsTotal = 0;
    /** @type {PinholeError | null} */
    this.syncError = null;
    /** The last slice the module holds, and the raw state it came from. */
    /** @type {Record<string, any> | undefined} */
    this.prevOut = undefined;
    this.prevRaw = /** @type {any} */ (NONE);

    /** @type {Instance | null} */
    this.inst = this.start();
    const loaded = this.load();
    if ("error" in loaded) throw new PinholeSetupError(loaded);
    this.pruner = new Pruner(buildReadTree(loaded.reads), (rule, path) => this.warn(rule, path));
    this.limits = loaded.limits;
    this.sync(true);
    this.unsubscribe = this.store.subscribe(() => this.onStoreChange(), () => this.track());
    this.drainAudit();
  }

  start() {
    const io = this.o.stderr ? { stderr: this.o.stderr } : undefined;
    return new Instance(this.module, io);
  }

  /** @returns {any} */
  load() {
    return JSON.parse(this.raw(`{"op":"load","manifest":${this.manifestText},"key":${JSON.stringify(this.key)}}`));
  }

  /**
   * raw sends one request text to the current instance. A trap propagates.
   * @param {string} text
   */
  raw(text) {
    const t = this.o.trace;
    if (t) t("in", text);
    const out = /** @type {Instance} */ (this.inst).call(text);
    if (t) t("out", out);
    return out;
  }

  /**
   * call sends a request; when the module traps it is re-created (manifest
   * and state restored) and the request is sent once more. Observe requests
   * are not repeated: recovery itself observes the store.
   * @param {string} text @param {string} op
   * @returns {string}
   */
  call(text, op) {
    try {
      return this.raw(text);
    } catch (err) {
      this.recover(err, op);
      if (op === "observe") return JSON.stringify({ snapshot: this.internal(this.snapshot), changed: true, recovered: true });
      try {
        return this.raw(text);
      } catch {
        return JSON.stringify(errorOf("internal_error", `the module failed twice during ${op}; the next call starts a new instance`));
      }
    }
  }

  /**
   * recover replaces a trapped instance: a new instance, the manifest again
   * (same key, so aliases and placeholders keep resolving), and the store's
   * current slice, or the last slice the module accepted when that fails.
   * @param {unknown} cause @param {string} op
   */
  recover(cause, op) {
    this.seqOffset += this.maxSeq;
    this.maxSeq = 0;
    this.inst = this.start();
    const loaded = this.load();
    if ("error" in loaded) throw new PinholeSetupError(loaded);
    /** @type {"store" | "last_good"} */
    let from = "store";
    let state;
    try {
      state = this.pruner.slice(this.store.getState(), NONE, undefined, false);
    } catch {
      state = undefined;
    }
    let resp = state ? this.tryObserve(state) : null;
    if (!resp || "error" in resp) {
      from = "last_good";
      state = this.prevOut ?? {};
      resp = this.tryObserve(/** @type {Record<string, any>} */ (state)) ?? errorOf("internal_error", "the restored state could not be observed");
    }
    if (!("error" in resp)) this.accepted(/** @type {Record<string, any>} */ (state), NONE, resp);
    this.emit({ source: "bridge", kind: "recovered", op, cause: cause instanceof Error ? cause.name : "unknown", restoredFrom: from });
  }

  /** @param {Record<string, any>} state */
  tryObserve(state) {
    try {
      return JSON.parse(this.raw(JSON.stringify({ op: "observe", state })));
    } catch {
      this.inst = this.start();
      const loaded = this.load();
      if ("error" in loaded) throw new PinholeSetupError(loaded);
      return null;
    }
  }

  /**
   * track reads the declared slice without keeping it (MobX observes these
   * reads) and returns a value that differs on every run, so a reaction
   * over it fires on every change of a declared path.
   */
  track() {
    try {
      this.pruner.slice(this.store.getState(), NONE, undefined, false);
    } catch {
      // The sync that follows reports it.
    }
    return (this.trackRuns = (this.trackRuns || 0) + 1);
  }

  onStoreChange() {
    try {
      if (this.disposed) return;
      this.dirty = true;
      if (this.scheduled) return;
      this.scheduled = true;
      const run = () => {
        this.scheduled = false;
        this.safeSync();
      };
      if (this.o.coalesce === "frame") {
        const raf = globalThis.requestAnimationFrame;
        if (typeof raf === "function") raf(run);
        else setTimeout(run, 16);
      } else {
        queueMicrotask(run);
      }
    } catch {
      // Never throw into the app's store.
    }
  }

  safeSync() {
    try {
      if (!this.disposed && this.dirty) this.sync(false);
      this.drainAudit();
    } catch (err) {
      this.syncError = errorOf("internal_error", "the bridge could not sync the store");
      this.emit({ source: "bridge", kind: "sync_error", code: "internal_error", path: "" });
    }
  }

  /** flush syncs now when the store changed since the last sync. */
  flush() {
    if (!this.disposed && this.dirty) this.sync(false);
  }

  /**
   * sync reads the declared slice and hands the module a patch, or the
   * whole slice when it must.
   * @param {boolean} full
   */
  sync(full) {
    this.dirty = false;
    let raw;
    /** @type {Record<string, any>} */
    let out;
    try {
      raw = this.store.getState();
      out = this.pruner.slice(raw, this.trust ? this.prevRaw : NONE, this.prevOut, this.trust);
    } catch (err) {
      const path = err instanceof BoundaryError ? err.path : "";
      this.syncError = errorOf("invalid_state", err instanceof BoundaryError ? err.message : "reading the store failed", path || undefined);
      this.emit({ source: "bridge", kind: "sync_error", code: "invalid_state", path });
      return;
    }
    /** @type {any} */
    let resp = null;
    if (!full && this.prevOut !== undefined) {
      const ops = diff(this.prevOut, out, this.maxPatchOps);
      if (ops && ops.length === 0) {
        this.prevRaw = this.trust ? raw : NONE;
        this.syncError = null;
        return;
      }
      if (ops && !this.patchUnsupported) {
        resp = JSON.parse(this.call(JSON.stringify({ op: "observe", patch: ops }), "observe"));
        if (resp.recovered) return;
        if ("error" in resp) {
          if (resp.error.code === "invalid_request") this.patchUnsupported = true;
          resp = null;
        }
      }
    }
    if (!resp) {
      resp = JSON.parse(this.call(JSON.stringify({ op: "observe", state: out }), "observe"));
      if (resp.recovered) return;
    }
    if ("error" in resp) {
      this.syncError = resp;
      this.emit({ source: "bridge", kind: "sync_error", code: resp.error.code, path: resp.error.param || "" });
      return;
    }
    this.accepted(out, raw, resp);
  }

  /**
   * accepted records that the module holds slice out (from raw state).
   * @param {Record<string, any>} out @param {any} raw @param {any} resp
   */
  accepted(out, raw, resp) {
    this.prevOut = out;
    this.prevRaw = this.trust ? raw : NONE;
    this.syncError = null;
    const n = seqOf(resp.snapshot);
    if (n > this.maxSeq) this.maxSeq = n;
    const ext = this.external(resp.snapshot);
    if (typeof resp.recordsTotal === "number") this.recordsTotal = resp.recordsTotal;
    if (ext !== this.snapshot) {
      this.snapshot = ext;
      const ev = { snapshot: ext, recordsTotal: this.recordsTotal };
      for (const l of [...this.listeners]) {
        try {
          l(ev);
        } catch {
          // A listener's fault is its own.
        }
      }
    }
  }

  /** @param {string} id module snapshot id → the id agents see */
  external(id) {
    const n = seqOf(id);
    return this.seqOffset === 0 || n < 0 ? id : "s" + (n + this.seqOffset);
  }

  /** @param {string} id an id agents saw → the module's id, or null when it predates a recovery */
  internal(id) {
    const n = seqOf(id);
    if (this.seqOffset === 0 || n < 0) return id;
    return n > this.seqOffset ? "s" + (n - this.seqOffset) : null;
  }

  /**
   * outward rewrites the leading snapshot ids of an answer after a recovery.
   * @param {string} text
   */
  outward(text) {
    if (this.seqOffset === 0) return text;
    return text.replace(/^\{"snapshot":"(s[0-9]+)"/, (_, id) => `{"snapshot":"${this.external(id)}"`)
      .replace(/^\{"from":"(s[0-9]+)","to":"(s[0-9]+)"/, (_, a, b) => `{"from":"${this.external(a)}","to":"${this.external(b)}"`);
  }

  /** @param {string} rule @param {string} path */
  warn(rule, path) {
    const k = rule + " " + path;
    if (this.warned.has(k)) return;
    if (this.warned.size >= MAX_WARNINGS) {
      this.suppressed++;
      return;
    }
    this.warned.add(k);
    this.emit({ source: "bridge", kind: "boundary", rule, path });
  }

  /** @param {AuditEvent} ev */
  emit(ev) {
    const f = this.o.onAudit;
    if (!f) return;
    try {
      f(ev);
    } catch {
      // The audit sink's fault is its own.
    }
  }

  drainAudit() {
    if (!this.o.onAudit || !this.inst) return;
    if (this.suppressed) {
      this.emit({ source: "bridge", kind: "boundary_suppressed", count: this.suppressed });
      this.suppressed = 0;
    }
    let resp;
    try {
      resp = JSON.parse(this.raw('{"op":"audit"}'));
    } catch {
      return;
    }
    for (const e of resp.events || []) {
      if (e.op === "audit") continue;
      if (typeof e.snapshot === "string" && e.snapshot) e.snapshot = this.external(e.snapshot);
      this.emit({ source: "module", ...e });
    }
  }

  /**
   * @param {import('./types.js').DescribeRequest} [request]
   * @returns {string}
   */
  describeNow(request) {
    if (this.disposed) return JSON.stringify(errorOf("not_loaded", "the bridge was disposed"));
    if (request !== undefined && (request === null || typeof request !== "object" || Array.isArray(request))) {
      return JSON.stringify(errorOf("invalid_request", "a describe request is an object", "request"));
    }
    if (request && Object.hasOwn(request, "op")) {
      return JSON.stringify(errorOf("invalid_request", "a describe request has no op parameter", "op"));
    }
    this.flush();
    if (this.syncError) return JSON.stringify(this.syncError);
    const out = this.outward(this.call(JSON.stringify({ op: "describe", ...request }), "describe"));
    this.drainAudit();
    return out;
  }

  /** @param {import('./types.js').DescribeRequest} [request] */
  async describeText(request) {
    return this.describeNow(request);
  }

  /** @param {import('./types.js').DescribeRequest} [request] */
  async describe(request) {
    return JSON.parse(this.describeNow(request));
  }

  /**
   * @param {import('./types.js').ExecuteRequest} request
   * @returns {Promise<import('./types.js').ExecuteResult | PinholeError>}
   */
  async execute(request) {
    if (this.disposed) return errorOf("not_loaded", "the bridge was disposed");
    if (!request || typeof request !== "object" || typeof request.capability !== "string") {
      return errorOf("invalid_request", "execute needs an object with a string capability", "capability");
    }
    this.flush();
    if (this.syncError) return this.syncError;
    const since = request.snapshot === undefined ? undefined : this.internal(request.snapshot);
    if (since === null) {
      return errorOf("stale_snapshot", "the snapshot predates a restart of the module; describe again", "snapshot");
    }
    /** @type {Record<string, unknown>} */
    const prep = { op: "prepare", capability: request.capability };
    if (request.record !== undefined) prep.record = request.record;
    if (request.input !== undefined) prep.input = request.input;
    if (since !== undefined) prep.snapshot = since;
    const prepared = JSON.parse(this.call(JSON.stringify(prep), "prepare"));
    if ("error" in prepared) {
      this.drainAudit();
      return prepared;
    }
    const handler = this.actions[request.capability];
    if (typeof handler !== "function") {
      return errorOf("unknown_capability", "the application has no handler for this capability", "capability");
    }
    /** @type {import('./types.js').ResolvedRequest} */
    const resolved = { capability: prepared.capability, snapshot: request.snapshot };
    if (prepared.record !== undefined) resolved.record = prepared.record;
    if (prepared.input !== undefined) resolved.input = prepared.input;
    try {
      await handler(resolved);
    } catch (err) {
      this.emit({ source: "bridge", kind: "action_error", capability: request.capability });
      if (this.o.onActionError) {
        try {
          this.o.onActionError(err, request.capability);
        } catch {
          // ignore
        }
      }
      return errorOf("action_failed", "the application's handler for this capability failed", "capability");
    }
    if (this.disposed) return errorOf("not_loaded", "the bridge was disposed");
    this.dirty = true;
    this.flush();
    const snapshot = this.snapshot;
    if (this.syncError || since === undefined || this.internal(request.snapshot) === null) {
      this.drainAudit();
      return { ok: true, snapshot };
    }
    const text = this.call(JSON.stringify({ op: "after", since }), "after");
    this.drainAudit();
    const after = JSON.parse(this.outward(text));
    if ("error" in after) return { ok: true, snapshot };
    return { ok: true, snapshot, after };
  }

  /** @param {(e: import('./types.js').SnapshotEvent) => void} listener */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** @param {import('./types.js').WebMCPOptions} [options] */
  exposeWebMCP(options) {
    return this.own(exposeWebMCP(this, options));
  }

  /** @param {import('./types.js').ExtensionOptions} [options] */
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
    try {
      this.unsubscribe?.();
    } catch {
      // ignore
    }
    for (const h of [...this.handles]) h.dispose();
    this.listeners.clear();
    this.inst = null;
  }
}

/** A 32-byte random session key as 64 hex characters. */
function randomKey() {
  const b = new Uint8Array(32);
  globalThis.crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** Symbol under which tests reach the current module instance. */
export const internals = Symbol.for("pinhole.internals");
Object.defineProperty(Bridge.prototype, internals, {
  get() {
    return { instance: this.inst, slice: () => this.prevOut };
  },
});
