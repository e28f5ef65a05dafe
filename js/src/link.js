// The link to the module: the current instance, the load request, and the
// snapshot numbering agents see. A trapped instance is replaced by a new one
// whose own numbering starts again at s1; the link keeps the ids agents see
// increasing by adding an offset. Answers are parsed and their snapshot
// fields rewritten by name (SNAPSHOT_FIELDS), never by matching text.
// Where the instance runs is the host's business (host.js: this thread or a
// Web Worker); every call is asynchronous, and the link's lane runs one
// piece of work with the module at a time.
import { errorOf, PinholeSetupError } from "./errors.js";

/** @typedef {import('./rooms.js').LoadAnswer} LoadAnswer */
/** @typedef {import('./rooms.js').LinkOptions} LinkOptions */

/** The fields of each answer that hold a snapshot id. */
const SNAPSHOT_FIELDS = Object.freeze({
  observe: ["snapshot"],
  describe: ["snapshot"],
  prepare: ["snapshot"],
  after: ["from", "to"],
});

/**
 * seqOf reads the sequence number of a snapshot id "sN"; -1 for anything else.
 * @param {unknown} id
 */
export const seqOf = (id) => (typeof id === "string" && /^s[0-9]+$/.test(id) ? Number(id.slice(1)) : -1);

/** @param {unknown} v @returns {v is Record<string, any>} */
const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** @typedef {import('./rooms.js').ModuleLink} ModuleLink */

/**
 * agentJSON serialises v for an agent as the module writes its answers:
 * JSON with U+2028 and U+2029 escaped, so that no text from the store
 * starts a line of its own in what the agent reads (JSON.stringify writes
 * them raw).
 * @param {unknown} v
 * @returns {string}
 */
export const agentJSON = (v) =>
  JSON.stringify(v).replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));

/**
 * Link is the bridge's connection to the module: one instance at a time.
 * @implements {ModuleLink}
 */
export class Link {
  /** @param {import('./rooms.js').ModuleHost} host @param {LinkOptions} o */
  constructor(host, o) {
    this.host = host;
    this.o = o;
    this.closed = false;
    /** Settles when the work queued so far is done. @type {Promise<unknown>} */
    this.lane = Promise.resolve();
    /** Snapshot numbers handed out by instances that trapped. */
    this.seqOffset = 0;
    /** The highest snapshot number the current instance handed out. */
    this.maxSeq = 0;
  }

  /** The current instance (as its host shows it), null once closed. */
  get instance() {
    return this.closed ? null : this.host.instance;
  }

  /**
   * exclusive runs fn once the work queued before it is done, and keeps
   * later work waiting until fn is done: a slice read, its patch sent and
   * its answer recorded are one step, never interleaved with another.
   * @template T
   * @param {() => T | Promise<T>} fn
   * @returns {Promise<T>}
   */
  exclusive(fn) {
    const run = this.lane.then(fn);
    this.lane = run.catch(() => {});
    return run;
  }

  /**
   * open starts a new instance and loads the manifest with the session's
   * key. The current numbering is kept (the instance it replaces handed out
   * no ids, or restart accounted for them).
   * @returns {Promise<LoadAnswer>}
   */
  async open() {
    if (this.closed) throw new Error("the module link is closed");
    await this.host.open();
    const loaded = JSON.parse(await this.raw(`{"op":"load","manifest":${this.o.manifestText},"key":${JSON.stringify(this.o.key)}}`));
    if (!isObj(loaded)) throw new PinholeSetupError(errorOf("internal_error", "the module's answer to load is not an object"));
    if ("error" in loaded) throw new PinholeSetupError(/** @type {any} */ (loaded));
    return /** @type {LoadAnswer} */ (loaded);
  }

  /** restart replaces a trapped instance; ids agents saw stay below the new ones. */
  restart() {
    this.seqOffset += this.maxSeq;
    this.maxSeq = 0;
    return this.open();
  }

  close() {
    this.closed = true;
    this.host.close();
  }

  /**
   * raw sends one request text to the current instance. A trap propagates.
   * @param {string} text
   * @returns {Promise<string>}
   */
  async raw(text) {
    if (this.closed) throw new Error("the module link is closed");
    const t = this.o.trace;
    if (t) t("in", text);
    const out = await this.host.call(text);
    if (t) t("out", out);
    return out;
  }

  /**
   * request sends one request object. A trap propagates.
   * @param {Record<string, unknown>} request
   * @returns {Promise<string>}
   */
  request(request) {
    return this.raw(JSON.stringify(request));
  }

  /**
   * parse reads the answer to an op with its snapshot ids as agents see them.
   * @param {string} op @param {string} text
   * @returns {any}
   */
  parse(op, text) {
    const v = JSON.parse(text);
    if (!isObj(v) || "error" in v) return v;
    if (op === "audit") {
      if (Array.isArray(v.events)) {
        for (const e of v.events) {
          if (isObj(e) && typeof e.snapshot === "string" && e.snapshot) e.snapshot = this.external(e.snapshot);
        }
      }
      return v;
    }
    const fields = /** @type {Record<string, readonly string[]>} */ (SNAPSHOT_FIELDS)[op];
    if (fields) {
      for (const f of fields) {
        if (typeof v[f] !== "string") continue;
        const n = seqOf(v[f]);
        if (n > this.maxSeq) this.maxSeq = n;
        v[f] = this.external(v[f]);
      }
    }
    return v;
  }

  /**
   * text is the answer to an op as agents see it: the module's exact bytes
   * while no restart happened, else the parsed answer with its ids mapped,
   * serialised again.
   * @param {string} op @param {string} text
   * @returns {string}
   */
  text(op, text) {
    if (this.seqOffset === 0) return text;
    let v;
    try {
      v = this.parse(op, text);
    } catch {
      return text;
    }
    return agentJSON(v);
  }

  /** @param {string} id module snapshot id → the id agents see */
  external(id) {
    const n = seqOf(id);
    return this.seqOffset === 0 || n < 0 ? id : "s" + (n + this.seqOffset);
  }

  /** @param {string} id an id agents saw → the module's id, or null when it predates a restart */
  internal(id) {
    const n = seqOf(id);
    if (this.seqOffset === 0 || n < 0) return id;
    return n > this.seqOffset ? "s" + (n - this.seqOffset) : null;
  }
}
