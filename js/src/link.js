// The link to the module: the current instance, the load request, and the
// snapshot numbering agents see. A trapped instance is replaced by a new one
// whose own numbering starts again at s1; the link keeps the ids agents see
// increasing by adding an offset. Answers are parsed and their snapshot
// fields rewritten by name (SNAPSHOT_FIELDS), never by matching text.
import { Instance } from "./module.js";
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
 * Link is the bridge's connection to the module: one instance at a time.
 * @implements {ModuleLink}
 */
export class Link {
  /** @param {WebAssembly.Module} module @param {LinkOptions} o */
  constructor(module, o) {
    this.module = module;
    this.o = o;
    /** @type {Instance | null} */
    this.inst = null;
    /** Snapshot numbers handed out by instances that trapped. */
    this.seqOffset = 0;
    /** The highest snapshot number the current instance handed out. */
    this.maxSeq = 0;
  }

  /** The current instance, null once closed. */
  get instance() {
    return this.inst;
  }

  /**
   * open starts a new instance and loads the manifest with the session's
   * key. The current numbering is kept (the instance it replaces handed out
   * no ids, or restart accounted for them).
   * @returns {LoadAnswer}
   */
  open() {
    const io = this.o.stderr ? { stderr: this.o.stderr } : undefined;
    this.inst = new Instance(this.module, io);
    const loaded = JSON.parse(this.raw(`{"op":"load","manifest":${this.o.manifestText},"key":${JSON.stringify(this.o.key)}}`));
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
    this.inst = null;
  }

  /**
   * raw sends one request text to the current instance. A trap propagates.
   * @param {string} text
   * @returns {string}
   */
  raw(text) {
    if (!this.inst) throw new Error("the module link is closed");
    const t = this.o.trace;
    if (t) t("in", text);
    const out = this.inst.call(text);
    if (t) t("out", out);
    return out;
  }

  /**
   * request sends one request object. A trap propagates.
   * @param {Record<string, unknown>} request
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
    return JSON.stringify(v);
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
