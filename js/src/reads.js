// Least exposure at the boundary: build the declared slice of the store from
// the module's `reads` (docs/protocol.md#load), applying the value rules
// of js/README.md ("Values at the boundary"). Only declared paths are ever
// read; nothing else is touched, let alone serialised.
//
// The slice is pruned exactly as the module prunes (internal/prune; the
// cases in testdata/prune are replayed by both): arrays keep their length,
// an array element that holds nothing declared becomes null, an object keeps
// only declared keys and disappears when none is present, a missing value is
// simply absent. A declared value that nests deeper than MAX_DEPTH levels,
// holds a cycle or an array longer than MAX_ARRAY_LENGTH is replaced by the
// cut marker {"$cut": "depth" | "cycle" | "size"}: that value is left out,
// the rest of the store still syncs, and the module shows the value as cut.
//
// Warnings name the declared path of the value (manifest keys and array
// indices), never a key found in the data.

/** The most nested levels one declared value may have. */
export const MAX_DEPTH = 64;

/**
 * The longest array a declared value may hold. A longer one (a sparse
 * array's length counts: `items[3e9] = x` makes one) is cut: its places
 * could not all be read without holding the page, nor sent as anything a
 * context can show.
 */
export const MAX_ARRAY_LENGTH = 1 << 20;

/** The member of the marker that stands for a declared value left out. */
export const CUT_KEY = "$cut";

/**
 * cut returns the marker for a declared value left out for reason.
 * @param {"depth" | "cycle" | "size"} reason
 */
export const cut = (reason) => ({ [CUT_KEY]: reason });

/**
 * isCut reports whether a slice value v (an object) is a cut marker: its
 * one member is CUT_KEY, with one of the three reasons, as the module reads
 * one (prune.IsCut).
 * @param {object} v
 */
export const isCut = (v) =>
  Object.hasOwn(v, CUT_KEY) && Object.keys(v).length === 1 &&
  CUT_REASONS.includes(/** @type {Record<string, string>} */ (v)[CUT_KEY]);

/** The reasons of a cut marker, as prune.Cut's. */
const CUT_REASONS = ["depth", "cycle", "size"];

/** Marks "no previous value" for the reference memo. */
export const NONE = Symbol("none");

/**
 * A node of the read tree: `all` keeps the whole value, `each` prunes every
 * item of an array, `children` descends into named keys.
 * @typedef {{all: boolean, each: ReadNode | null, children: Map<string, ReadNode> | null}} ReadNode
 */

/** @returns {ReadNode} */
const node = () => ({ all: false, each: null, children: null });

/**
 * parsePointer splits an RFC 6901 JSON Pointer into its reference tokens.
 * @param {string} p
 * @returns {string[]}
 */
export function parsePointer(p) {
  if (p === "") return [];
  if (p[0] !== "/") throw new Error(`not a JSON Pointer: ${JSON.stringify(p)}`);
  return p.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * escapeToken escapes one reference token for a JSON Pointer.
 * @param {string | number} t
 */
export function escapeToken(t) {
  const s = String(t);
  // Most keys need no escape: skip the two replacements.
  if (s.indexOf("~") < 0 && s.indexOf("/") < 0) return s;
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * @param {ReadNode} root
 * @param {string[]} tokens
 */
function walk(root, tokens) {
  let n = root;
  for (const tok of tokens) {
    if (n.all) return n;
    if (!n.children) n.children = new Map();
    let c = n.children.get(tok);
    if (!c) n.children.set(tok, (c = node()));
    n = c;
  }
  return n;
}

/** @param {ReadNode} root @param {string[]} tokens */
function addAll(root, tokens) {
  const n = walk(root, tokens);
  n.all = true;
  n.children = null;
  n.each = null;
}

/**
 * buildReadTree turns the `reads` of a load answer into a read tree.
 * @param {import('./types.js').Reads} reads
 * @returns {ReadNode}
 */
export function buildReadTree(reads) {
  const root = node();
  for (const p of reads.paths || []) addAll(root, parsePointer(p));
  for (const c of reads.collections || []) {
    const n = walk(root, parsePointer(c.from));
    if (n.all) continue;
    if (!n.each) n.each = node();
    for (const it of c.items) addAll(n.each, parsePointer(it));
  }
  return root;
}

/**
 * Raised inside the pruner when a declared value cannot cross the boundary
 * (cycle, depth); the pruner replaces that value by the cut marker and never
 * lets it escape. path is the value's declared path; the message names no
 * key of the data.
 */
export class BoundaryError extends Error {
  /** @param {"depth" | "cycle" | "size"} rule @param {string} path */
  constructor(rule, path) {
    super(rule === "depth" ? `a declared value is nested deeper than ${MAX_DEPTH} levels`
      : rule === "size" ? `a declared value holds an array longer than ${MAX_ARRAY_LENGTH}` : "a declared value contains a cycle");
    this.name = "BoundaryError";
    this.code = "invalid_state";
    this.rule = rule;
    this.path = path;
  }
}

const objectProto = Object.prototype;

/**
 * put sets a key on a fresh object, safely for keys such as "__proto__".
 * @param {Record<string, any>} obj @param {string} key @param {any} value
 */
function put(obj, key, value) {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/**
 * wellFormed returns s with each lone surrogate replaced by U+FFFD, as the
 * module's parser decodes it (and as String.prototype.toWellFormed does).
 * @type {(s: string) => string}
 */
const wellFormed = typeof (/** @type {any} */ ("")).isWellFormed === "function"
  ? (s) => (/** @type {any} */ (s).isWellFormed() ? s : /** @type {any} */ (s).toWellFormed())
  : (s) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");

/** @param {any} v */
function isPlain(v) {
  const p = Object.getPrototypeOf(v);
  return p === objectProto || p === null;
}

/**
 * Pruner builds declared slices. One pruner serves one bridge; it remembers
 * the last raw state and slice so that, for stores that change by reference,
 * unchanged subtrees are reused without being read again.
 */
export class Pruner {
  /**
   * @param {ReadNode} tree
   * @param {(rule: string, path: string) => void} warn called for a value
   *   that is left out (path only, never the value).
   * @param {string} [scope] the manifest's sessionScope (see dropPartialScope)
   */
  constructor(tree, warn, scope) {
    this.tree = tree;
    this.warn = warn;
    /** The manifest's sessionScope, as reference tokens, or null. */
    this.scope = scope === undefined ? null : parsePointer(scope);
    /**
     * The reference tokens of the place being read: at depth d the path is
     * at[0..d). Written at each level, never popped, so that a path string
     * is built only for a warning (a cold sync reads every declared key of
     * every record).
     * @type {(string | number)[]}
     */
    this.at = [];
  }

  /**
   * path is the JSON Pointer of the place at depth d.
   * @param {number} d
   */
  path(d) {
    let p = "";
    for (let i = 0; i < d; i++) p += "/" + escapeToken(this.at[i]);
    return p;
  }

  /** @param {string} rule @param {number} d */
  warnAt(rule, d) {
    this.warn(rule, this.path(d));
  }

  /**
   * slice returns the declared slice of state. With trustRefs, a subtree
   * whose raw value is the same reference as in prevRaw is taken from
   * prevOut unchanged.
   * @param {any} state
   * @param {any} prevRaw the previous raw state, or NONE
   * @param {any} prevOut the previous slice
   * @param {boolean} trustRefs
   * @returns {Record<string, any>}
   */
  slice(state, prevRaw, prevOut, trustRefs) {
    this.trust = trustRefs;
    // A slice can start inside another: a warning reaches the app's onAudit
    // at once, and a handler that writes to a reactive store can have the
    // bridge read it again. Each slice has its own tokens.
    const outer = this.at;
    this.at = [];
    try {
      const out = this.prune(this.tree, state, prevRaw, prevOut, 0);
      if (out === undefined || out === null || typeof out !== "object" || Array.isArray(out)) return {};
      if (this.scope) this.dropPartialScope(state, out);
      return out;
    } finally {
      this.at = outer;
    }
  }

  /**
   * dropPartialScope leaves the session scope out of out when a part of it
   * could not cross (a class instance, a Map, a function, a throwing getter
   * or an invalid date inside it, which the rules leave out): what crossed
   * could be the same for tenants the store tells apart, and tokens keyed
   * to it would carry across them. Absent, it makes the module withhold
   * the context until the scope crosses whole. The member left out is the
   * scope's, or that of its nearest ancestor held by an object.
   * @param {any} state the store's state @param {Record<string, any>} out its slice
   */
  dropPartialScope(state, out) {
    const toks = /** @type {string[]} */ (this.scope);
    let v = state;
    for (const tok of toks) {
      if (v === null || typeof v !== "object") return; // absent already
      try {
        v = Object.hasOwn(v, tok) || (tok in v && !(tok in objectProto)) ? v[tok] : undefined;
      } catch {
        return; // a throwing getter: left out already, and warned
      }
    }
    if (v === null || typeof v !== "object") return; // a plain value, or absent: crossed whole or not at all
    let partial = false;
    const warn = this.warn;
    this.warn = () => { partial = true; };
    try {
      this.value(v, 0, 0, null);
    } catch (err) {
      if (!(err instanceof BoundaryError)) throw err;
      return; // cut whole: the module withholds for a cut scope
    } finally {
      this.warn = warn;
    }
    if (!partial) return;
    /** @type {any} */
    let o = out;
    let holder = null;
    let key = "";
    for (const tok of toks) {
      if (o === null || typeof o !== "object") break;
      if (!Array.isArray(o)) [holder, key] = [o, tok];
      o = Array.isArray(o) ? o[Number(tok)] : o[tok];
    }
    if (holder) delete holder[key];
  }

  /**
   * read returns obj[key] for a declared key, or undefined when the key is
   * not there or its getter throws (warned; d is the key's depth).
   * @param {any} obj @param {string} key @param {number} d
   */
  read(obj, key, d) {
    try {
      if (Object.hasOwn(obj, key) || (key in obj && !(key in objectProto))) return obj[key];
      return undefined;
    } catch {
      this.warnAt("getter_threw", d);
      return undefined;
    }
  }

  /**
   * @param {ReadNode} n @param {any} v @param {any} pv @param {any} po
   * @param {number} d the depth of v's place (see at)
   * @returns {any} the pruned value, undefined for absent
   */
  prune(n, v, pv, po, d) {
    if (this.trust && pv !== NONE && v === pv) return po;
    if (n.all) {
      try {
        return this.value(v, d, 0, null);
      } catch (err) {
        if (!(err instanceof BoundaryError)) throw err;
        this.warn(err.rule, err.path);
        return cut(err.rule);
      }
    }
    if (n.each && v !== null && v !== undefined) {
      // A collection that is not an array: an empty object in its place, as
      // the module keeps it, so that it can warn about the shape.
      let arr;
      try {
        arr = Array.isArray(v);
      } catch {
        this.warnAt("unreadable", d);
        return undefined;
      }
      if (!arr) return {};
    }
    if (v === null || typeof v !== "object") return undefined;
    try {
      return this.pruneObject(n, v, pv, po, d);
    } catch (err) {
      if (err instanceof BoundaryError) throw err;
      this.warnAt("unreadable", d);
      return undefined;
    }
  }

  /**
   * @param {ReadNode} n @param {any} v @param {any} pv @param {any} po @param {number} d
   * @returns {any}
   */
  pruneObject(n, v, pv, po, d) {
    let isArr;
    try {
      isArr = Array.isArray(v);
    } catch {
      this.warnAt("unreadable", d);
      return undefined;
    }
    const at = this.at;
    const pArr = pv !== NONE && Array.isArray(pv) && Array.isArray(po);
    if (isArr) {
      const len = v.length;
      if (len > MAX_ARRAY_LENGTH) {
        this.warnAt("size", d);
        return cut("size");
      }
      if (n.each) {
        const out = new Array(len);
        const reuse = this.trust && pArr;
        for (let i = 0; i < len; i++) {
          const item = v[i];
          // The common case of an immutable store: the item did not change.
          if (reuse && i < pv.length && item === pv[i] && i < po.length) {
            out[i] = po[i];
            continue;
          }
          at[d] = i;
          const r = this.prune(n.each, item, pArr && i < pv.length ? pv[i] : NONE,
            pArr && i < po.length ? po[i] : undefined, d + 1);
          out[i] = r === undefined ? null : r;
        }
        return out;
      }
      if (!n.children) return undefined;
      const out = new Array(len);
      let any = false;
      for (let i = 0; i < len; i++) {
        const c = n.children.get(String(i));
        let r;
        if (c) {
          at[d] = i;
          r = this.prune(c, this.read(v, String(i), d + 1), pArr && i < pv.length ? pv[i] : NONE,
            pArr && i < po.length ? po[i] : undefined, d + 1);
        }
        if (r === undefined) r = null;
        else any = true;
        out[i] = r;
      }
      return any ? out : undefined;
    }
    const children = n.children;
    if (!children || v instanceof Map || v instanceof Set) return undefined;
    const pObj = pv !== NONE && pv !== null && typeof pv === "object" && po !== null && typeof po === "object";
    /** @type {Record<string, any> | undefined} */
    let out;
    // Keys in the store's own order, as the module keeps them; undeclared
    // ones are skipped.
    for (const key of this.keysInOrder(v, children)) {
      const c = children.get(key);
      if (c === undefined) continue;
      at[d] = key;
      const r = this.prune(c, this.read(v, key, d + 1), pObj ? this.peek(pv, key) : NONE,
        pObj && Object.hasOwn(po, key) ? po[key] : undefined, d + 1);
      if (r !== undefined) put((out ??= {}), key, r);
    }
    return out;
  }

  /**
   * peek reads a key of the previous raw state; NONE when unreadable.
   * @param {any} obj @param {string} key
   */
  peek(obj, key) {
    try {
      return obj[key];
    } catch {
      return NONE;
    }
  }

  /**
   * keysInOrder lists the declared keys present in obj, in obj's key order
   * for plain objects (declared order otherwise). For a plain object not
   * much wider than the declared keys it returns all of obj's own keys,
   * undeclared ones included: no list is made per record.
   * @param {any} obj @param {Map<string, ReadNode>} children
   * @returns {string[]}
   */
  keysInOrder(obj, children) {
    if (!isPlain(obj) || children.size === 0) return [...children.keys()];
    let keys;
    try {
      keys = Object.keys(obj);
    } catch {
      return [...children.keys()];
    }
    if (keys.length <= children.size * 4) return keys; // the caller skips the undeclared ones
    // A wide object: order the few declared keys by their position.
    const present = [...children.keys()].filter((k) => Object.hasOwn(obj, k));
    if (present.length < 2) return present;
    const pos = new Map(keys.map((k, i) => [k, i]));
    return present.sort((a, b) => /** @type {number} */ (pos.get(a)) - /** @type {number} */ (pos.get(b)));
  }

  /**
   * value converts a whole declared value to JSON by the boundary rules.
   * Returns undefined for a value that is absent. pd is the depth of the
   * declared value's place: warnings about its parts name that place, not
   * their keys. stack holds the objects being converted (null at the top:
   * it is made for the first object, not for every plain value).
   * @param {any} v @param {number} pd @param {number} depth @param {any[] | null} stack
   * @returns {any}
   */
  value(v, pd, depth, stack) {
    if (v === null || typeof v !== "object") return this.convert(v, pd, depth, stack);
    try {
      return this.convert(v, pd, depth, stack);
    } catch (err) {
      if (err instanceof BoundaryError) throw err;
      // A hostile object (a Proxy whose traps throw): left out.
      this.warnAt("unreadable", pd);
      return undefined;
    }
  }

  /**
   * @param {any} v @param {number} pd @param {number} depth @param {any[] | null} stack
   * @returns {any}
   */
  convert(v, pd, depth, stack) {
    switch (typeof v) {
      case "string":
      case "boolean":
        return v;
      case "number":
        return Number.isFinite(v) ? v : null;
      case "bigint":
        return v.toString();
      case "undefined":
        return undefined;
      case "function":
      case "symbol":
        this.warnAt("not_serialisable", pd);
        return undefined;
    }
    if (v === null) return null;
    if (v instanceof Date) {
      const t = v.getTime();
      if (Number.isNaN(t)) {
        this.warnAt("invalid_date", pd);
        return undefined;
      }
      return v.toISOString();
    }
    if (depth >= MAX_DEPTH) throw new BoundaryError("depth", this.path(pd));
    const st = stack ?? [];
    if (st.includes(v)) throw new BoundaryError("cycle", this.path(pd));
    let isArr;
    try {
      isArr = Array.isArray(v);
    } catch {
      this.warnAt("unreadable", pd);
      return undefined;
    }
    st.push(v);
    try {
      if (isArr) {
        const len = v.length;
        if (len > MAX_ARRAY_LENGTH) throw new BoundaryError("size", this.path(pd));
        const out = new Array(len);
        for (let i = 0; i < len; i++) {
          let item;
          try {
            item = v[i];
          } catch {
            this.warnAt("getter_threw", pd);
          }
          const r = this.value(item, pd, depth + 1, st);
          out[i] = r === undefined ? null : r;
        }
        return out;
      }
      if (!isPlain(v)) {
        this.warnAt(v instanceof Map || v instanceof Set ? "map_or_set" : "class_instance", pd);
        return undefined;
      }
      /** @type {Record<string, any>} */
      const out = {};
      let rewritten = false;
      for (const key of Object.keys(v)) {
        let item;
        try {
          item = v[key];
        } catch {
          this.warnAt("getter_threw", pd);
          continue;
        }
        const r = this.value(item, pd, depth + 1, st);
        if (r === undefined) continue;
        // A key is sent as the module reads it: a lone surrogate becomes
        // U+FFFD, as Go decodes it. Two keys that then read the same would
        // make the module refuse the whole slice as a duplicate key: the
        // later one is left out instead. (Keys of an object are distinct,
        // so only an object with such a key needs the check.)
        const k = wellFormed(key);
        if (k !== key) rewritten = true;
        if (rewritten && Object.hasOwn(out, k)) {
          this.warnAt("duplicate_key", pd);
          continue;
        }
        put(out, k, r);
      }
      return out;
    } finally {
      st.pop();
    }
  }
}
