// Recovery: when the module traps, a new instance replaces it (same manifest,
// same key, so aliases and placeholders keep resolving), the store's current
// slice is observed again (or the last slice the module accepted, when the
// store cannot be read), the incident is audited, and the call is answered.
import { errorOf } from "./errors.js";

/**
 * The field of each request that holds a snapshot id, as agents see it:
 * it is mapped to the current instance's id just before each attempt, so a
 * request retried on a new instance never names an id of the dead one.
 */
const REQUEST_SNAPSHOT_FIELDS = Object.freeze({ prepare: "snapshot", after: "since" });

/**
 * staleAnswer is the module's answer to a request naming a snapshot that
 * predates a restart (the module would say the same of one it no longer holds).
 * @param {string} op
 */
const staleAnswer = (op) => JSON.stringify(errorOf("stale_snapshot", "the snapshot predates a restart of the module; describe again",
  /** @type {Record<string, string>} */ (REQUEST_SNAPSHOT_FIELDS)[op]));

/** @typedef {import('./rooms.js').ModuleLink} ModuleLink */
/** @typedef {import('./rooms.js').AuditRoom} AuditRoom */
/** @typedef {import('./rooms.js').StateSource} StateSource */

/** @typedef {import('./rooms.js').ModuleCaller} ModuleCaller */

/**
 * Recovery sends requests through the link and recovers from traps.
 * @implements {ModuleCaller}
 */
export class Recovery {
  /** @param {ModuleLink} link @param {AuditRoom} audit */
  constructor(link, audit) {
    this.link = link;
    this.audit = audit;
    /** @type {StateSource | null} */
    this.source = null;
    /** The sender used while the lane is held (one object, built once). */
    this.held = {
      /** @param {Record<string, unknown> & {op: string}} request */
      send: async (request) => {
        const text = await this.exchange(request);
        return text === null ? null : this.link.parse(request.op, text);
      },
    };
  }

  /** @param {StateSource} source what a new instance is restored from */
  restoreFrom(source) {
    this.source = source;
  }

  /**
   * send makes one request and parses the answer, recovering from a trap.
   * An observe is not repeated after a recovery (recovery itself observed
   * the store): then the answer is null.
   * @param {Record<string, unknown> & {op: string}} request
   * @returns {Promise<any>}
   */
  send(request) {
    return this.link.exclusive(() => this.held.send(request));
  }

  /**
   * sendText is send answering text: the module's bytes, with snapshot ids
   * as agents see them.
   * @param {Record<string, unknown> & {op: string}} request
   * @returns {Promise<string>}
   */
  sendText(request) {
    return this.link.exclusive(async () => {
      const text = await this.exchange(request);
      return text === null ? JSON.stringify(errorOf("internal_error", "the module restarted")) : this.link.text(request.op, text);
    });
  }

  /**
   * serial runs fn alone with the module: nothing else is sent until it is
   * done. fn sends through the caller it is given (send on this caller
   * would wait for fn itself).
   * @template T
   * @param {(held: {send(request: Record<string, unknown> & {op: string}): Promise<any>}) => T | Promise<T>} fn
   * @returns {Promise<T>}
   */
  serial(fn) {
    return this.link.exclusive(() => fn(this.held));
  }

  /** @param {string} id */
  internal(id) {
    return this.link.internal(id);
  }

  /**
   * exchange sends one request with the lane held.
   * @param {Record<string, unknown> & {op: string}} request
   * @returns {Promise<string | null>}
   */
  async exchange(request) {
    const op = request.op;
    if (this.link.closed) return JSON.stringify(errorOf("not_loaded", "the bridge was disposed"));
    // A whole slice: let the page breathe between reading it and serialising it (a worker host yields a task).
    if (op === "observe" && "state" in request) await this.link.host.breathe?.();
    let text = this.moduleText(request);
    if (text === null) return staleAnswer(request.op);
    try {
      return await this.link.raw(text);
    } catch (err) {
      if (this.link.closed) return JSON.stringify(errorOf("not_loaded", "the bridge was disposed"));
      await this.recover(err, op);
      if (op === "observe") return null;
      // Mapped again: the snapshot the request named was held by the dead instance only.
      text = this.moduleText(request);
      if (text === null) return staleAnswer(request.op);
      try {
        return await this.link.raw(text);
      } catch {
        return JSON.stringify(errorOf("internal_error", `the module failed twice during ${op}; the next call starts a new instance`));
      }
    }
  }

  /**
   * moduleText is the request as the current instance must get it: its
   * snapshot id (as agents see it) mapped to the instance's own; null when
   * the id predates a restart of the module.
   * @param {Record<string, unknown> & {op: string}} request
   * @returns {string | null}
   */
  moduleText(request) {
    const field = /** @type {Record<string, string>} */ (REQUEST_SNAPSHOT_FIELDS)[request.op];
    const id = field ? request[field] : undefined;
    if (typeof id !== "string") return JSON.stringify(request);
    const mapped = this.link.internal(id);
    return mapped === null ? null : JSON.stringify({ ...request, [field]: mapped });
  }

  /**
   * recover replaces a trapped instance and restores the state.
   * @param {unknown} cause @param {string} op
   */
  async recover(cause, op) {
    try {
      await this.link.restart();
    } catch {
      // The new instance failed at once: the next call tries again.
    }
    const src = this.source;
    /** @type {"store" | "last_good"} */
    let from = "store";
    let state = src ? src.currentSlice() : undefined;
    let resp = state ? await this.tryObserve(state) : null;
    if (!resp || "error" in resp) {
      from = "last_good";
      state = src ? src.lastGood() : {};
      resp = (await this.tryObserve(state)) ?? errorOf("internal_error", "the restored state could not be observed");
    }
    if (src && !("error" in resp)) src.accepted(/** @type {Record<string, any>} */ (state), resp);
    this.audit.emit({ source: "bridge", kind: "recovered", op, cause: cause instanceof Error ? cause.name : "unknown", restoredFrom: from });
  }

  /**
   * tryObserve observes state on the new instance; when that traps too, it
   * starts yet another instance and answers null.
   * @param {Record<string, any>} state
   */
  async tryObserve(state) {
    try {
      return this.link.parse("observe", await this.link.request({ op: "observe", state }));
    } catch {
      try {
        await this.link.open();
      } catch {
        // The next call tries again.
      }
      return null;
    }
  }
}
