// Sync: the store followed. Each store change marks the slice dirty and
// schedules one sync per microtask (or animation frame); a sync reads only
// the declared paths and hands the module a JSON Patch against the slice it
// holds, or the whole slice when it must. Subscribers hear of each new
// snapshot.
import { buildReadTree, Pruner, NONE } from "./reads.js";
import { diff } from "./diff.js";
import { errorOf } from "./errors.js";

/** @typedef {import('./types.js').PinholeError} PinholeError */
/** @typedef {import('./types.js').SnapshotEvent} SnapshotEvent */
/** @typedef {import('./rooms.js').SyncOptions} SyncOptions */

/** The default patch budget: beyond this many operations a full observe is sent. */
export const DEFAULT_MAX_PATCH_OPS = 512;

/** @typedef {import('./rooms.js').SyncRoom} SyncRoom */
/** @typedef {import('./rooms.js').StateSource} StateSource */

/**
 * Sync keeps the module's snapshot in step with the store.
 * @implements {SyncRoom}
 * @implements {StateSource}
 */
export class Sync {
  /** @param {SyncOptions} o */
  constructor(o) {
    this.store = o.store;
    this.caller = o.caller;
    this.audit = o.audit;
    this.coalesce = o.coalesce;
    this.trust = !o.store.mutable;
    this.maxPatchOps = o.maxPatchOps ?? DEFAULT_MAX_PATCH_OPS;
    this.pruner = new Pruner(buildReadTree(o.reads), (rule, path) => this.audit.warn(rule, path), o.scope);
    /** @type {Set<(e: SnapshotEvent) => void>} */
    this.listeners = new Set();
    this.stopped = false;
    this.dirty = false;
    this.scheduled = false;
    this.patchUnsupported = false;
    this.trackRuns = 0;
    /** The snapshot id agents see now, and the record count that came with it. */
    this.snapshot = "";
    this.recordsTotal = 0;
    /** The module's last snapshot warnings, joined, their counts left out: each new kind of set is reported once. */
    this.warnings = "";
    /** Why the module does not hold the store's current slice, if it does not. @type {PinholeError | null} */
    this.error = null;
    /** The last slice the module holds, and the raw state it came from. */
    /** @type {Record<string, any> | undefined} */
    this.prevOut = undefined;
    this.prevRaw = /** @type {any} */ (NONE);
    /** @type {(() => void) | undefined} */
    this.unsubscribe = undefined;
  }

  /**
   * start follows the store and observes the whole slice once. It
   * subscribes first: a change made while that observe is on its way to the
   * module (in a worker, a round trip) is synced after it.
   */
  async start() {
    this.unsubscribe = this.store.subscribe(() => this.onStoreChange(), () => this.track());
    await this.caller.serial((held) => this.sync(held, true));
  }

  /** stop unsubscribes from the store and from every listener. */
  stop() {
    this.stopped = true;
    try {
      this.unsubscribe?.();
    } catch {
      // ignore
    }
    this.listeners.clear();
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
    return ++this.trackRuns;
  }

  onStoreChange() {
    try {
      if (this.stopped) return;
      this.dirty = true;
      if (this.scheduled) return;
      this.scheduled = true;
      const run = () => {
        this.scheduled = false;
        this.safeSync();
      };
      if (this.coalesce === "frame") {
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

  async safeSync() {
    try {
      await this.flush();
      await this.audit.drain();
    } catch {
      this.error = errorOf("internal_error", "the bridge could not sync the store");
      this.audit.emit({ source: "bridge", kind: "sync_error", code: "internal_error", path: "" });
    }
  }

  /** touch marks the store changed (after a handler ran). */
  touch() {
    this.dirty = true;
  }

  /**
   * flush syncs now when the store changed since the last sync; it settles
   * once the module holds the store's slice (or the sync failed).
   * @returns {Promise<void>}
   */
  flush() {
    return this.caller.serial((held) => (!this.stopped && this.dirty ? this.sync(held, false) : undefined));
  }

  /**
   * sync reads the declared slice and hands the module a patch, or the
   * whole slice when it must. The caller holds the module's lane.
   * @param {{send(request: Record<string, unknown> & {op: string}): Promise<any>}} held
   * @param {boolean} full
   */
  async sync(held, full) {
    this.dirty = false;
    let raw;
    /** @type {Record<string, any>} */
    let out;
    try {
      raw = this.store.getState();
      out = this.pruner.slice(raw, this.trust ? this.prevRaw : NONE, this.prevOut, this.trust);
    } catch {
      // getState threw (a value too deep or cyclic is cut per value in slice).
      this.error = errorOf("invalid_state", "reading the store failed");
      this.audit.emit({ source: "bridge", kind: "sync_error", code: "invalid_state", path: "" });
      return;
    }
    /** @type {any} */
    let resp = null;
    if (!full && this.prevOut !== undefined) {
      const ops = diff(this.prevOut, out, this.maxPatchOps);
      if (ops && ops.length === 0) {
        this.prevRaw = this.trust ? raw : NONE;
        this.error = null;
        return;
      }
      if (ops && !this.patchUnsupported) {
        resp = await held.send({ op: "observe", patch: ops });
        if (resp === null) return; // recovered: the module holds the store's slice
        if ("error" in resp) {
          if (resp.error.code === "invalid_request") this.patchUnsupported = true;
          resp = null;
        }
      }
    }
    if (!resp) {
      resp = await held.send({ op: "observe", state: out });
      if (resp === null) return;
    }
    if ("error" in resp) {
      this.error = resp;
      this.audit.emit({ source: "bridge", kind: "sync_error", code: resp.error.code, path: resp.error.param || "" });
      return;
    }
    this.holds(out, raw, resp);
  }

  /** @returns {Record<string, any> | undefined} the store's declared slice now, if it can be read */
  currentSlice() {
    try {
      return this.pruner.slice(this.store.getState(), NONE, undefined, false);
    } catch {
      return undefined;
    }
  }

  /** @returns {Record<string, any>} the last slice the module accepted */
  lastGood() {
    return this.prevOut ?? {};
  }

  /**
   * accepted records that a new instance holds state (recovery).
   * @param {Record<string, any>} state @param {any} resp
   */
  accepted(state, resp) {
    this.holds(state, NONE, resp);
  }

  /**
   * holds records that the module holds slice out (from raw state).
   * @param {Record<string, any>} out @param {any} raw @param {any} resp the observe answer
   */
  holds(out, raw, resp) {
    this.prevOut = out;
    this.prevRaw = this.trust ? raw : NONE;
    this.error = null;
    if (typeof resp.recordsTotal === "number") this.recordsTotal = resp.recordsTotal;
    // What the module found wrong with the slice (a collection that is not
    // an array, records without an id): manifest places and counts, never
    // values. Reported when the set changes other than in its counts (a
    // store that grows without ids would report at every sync), and once
    // more, empty, when it clears.
    const warnings = Array.isArray(resp.warnings) ? resp.warnings.filter((/** @type {unknown} */ w) => typeof w === "string") : [];
    const kinds = warnings.join("\n").replace(/\d+/g, "#");
    if (kinds !== this.warnings) {
      this.warnings = kinds;
      this.audit.emit({ source: "bridge", kind: "snapshot_warnings", warnings });
    }
    if (resp.snapshot !== this.snapshot) {
      this.snapshot = resp.snapshot;
      const ev = { snapshot: resp.snapshot, recordsTotal: this.recordsTotal };
      for (const l of [...this.listeners]) {
        try {
          l(ev);
        } catch {
          // A listener's fault is its own.
        }
      }
    }
  }

  /** @param {(e: SnapshotEvent) => void} listener */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
