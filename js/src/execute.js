// The agent's calls: describe and execute. execute checks the request,
// refuses inputs with prototype keys (and values behind tokens that hold
// them, naming only the slot), has the module prepare it (capability
// active and available, input valid, snapshot not stale, placeholders and
// aliases resolved), runs the app's handler, syncs, and answers with the
// module's after observation since the request's snapshot.
import { errorOf } from "./errors.js";
import { escapeToken } from "./reads.js";
import { agentJSON } from "./link.js";

/** @typedef {import('./types.js').PinholeError} PinholeError */
/** @typedef {import('./types.js').DescribeRequest} DescribeRequest */
/** @typedef {import('./types.js').ExecuteRequest} ExecuteRequest */
/** @typedef {import('./types.js').ExecuteResult} ExecuteResult */
/** @typedef {import('./types.js').ResolvedRequest} ResolvedRequest */
/** @typedef {import('./rooms.js').AgentOptions} AgentOptions */

/** Keys that reach an object's prototype when assigned or merged. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** @typedef {{ key: string, up: PathNode } | null} PathNode */

/**
 * prototypePath finds a key named __proto__, constructor or prototype at
 * any depth of a JSON value and answers the path to it (its member names
 * and array indexes, the key last), or null.
 * @param {unknown} value
 * @returns {string[] | null}
 */
function prototypePath(value) {
  /** @type {[unknown, PathNode][]} */
  const stack = [[value, null]];
  const seen = new Set();
  /** @param {PathNode} n @param {string} key */
  const path = (n, key) => {
    const out = [key];
    for (; n !== null; n = n.up) out.push(n.key);
    return out.reverse();
  };
  while (stack.length) {
    const [v, at] = /** @type {[unknown, PathNode]} */ (stack.pop());
    if (v === null || typeof v !== "object" || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], { key: String(i), up: at }]);
      continue;
    }
    const keys = Object.keys(v);
    for (const k of keys) {
      if (PROTOTYPE_KEYS.has(k)) return path(at, k);
    }
    for (let i = keys.length - 1; i >= 0; i--) stack.push([/** @type {any} */ (v)[keys[i]], { key: keys[i], up: at }]);
  }
  return null;
}

/** @param {string[]} path */
const pointer = (path) => path.map((k) => "/" + escapeToken(k)).join("");

/**
 * prototypeKey finds a key named __proto__, constructor or prototype at any
 * depth of a JSON value and answers its JSON Pointer, or null.
 * @param {unknown} value
 * @returns {string | null}
 */
export function prototypeKey(value) {
  const path = prototypePath(value);
  return path === null ? null : pointer(path);
}

/** @param {string} at */
const prototypeKeyError = (at) =>
  errorOf("invalid_input", "input keys named __proto__, constructor or prototype are not accepted", at);

/**
 * slotOf answers the JSON Pointer of the token slot that path (into the
 * prepared input) runs through: the first place where the agent's input
 * holds no member on the way, which is where a token was resolved. The
 * agent's input has no prototype key, so a prototype key in the prepared
 * input lies inside the value behind a token, and only the slot is named.
 * @param {unknown} input the agent's input
 * @param {string[]} path
 * @returns {string}
 */
export function slotOf(input, path) {
  let v = /** @type {any} */ (input);
  for (let i = 0; i < path.length; i++) {
    if (v === null || typeof v !== "object" || Object.hasOwn(v, "$placeholder") || !Object.hasOwn(v, path[i])) {
      return pointer(path.slice(0, i));
    }
    v = v[path[i]];
  }
  return "";
}

/**
 * The answer when the value behind a token holds a prototype key: the app's
 * own store data, which is neither handed to the handler nor described.
 * @param {string} at the slot's pointer
 */
const resolvedValueError = (at) =>
  errorOf("invalid_input", "input" + at + ": the value behind this token cannot be handed to the application's handler", at);

/** @typedef {import('./rooms.js').AgentRoom} AgentRoom */

/** What plainRequest answers for a request that is not JSON data. */
const NOT_JSON = Symbol("not JSON data");

/**
 * plainRequest returns an agent's request as plain JSON data, read once: a
 * copy with no getters, proxies, toJSON methods or prototypes of its own,
 * so that what the checks below read is what the module gets and what the
 * handler runs for. A request object that answered differently on each read
 * could otherwise pass the checks as one request and reach the module or
 * the handler as another. NOT_JSON for a request that is not JSON data (a
 * function, a BigInt, a cycle, a proxy) or holds more than
 * MAX_REQUEST_VALUES values.
 * @param {unknown} request
 * @returns {any}
 */
function plainRequest(request) {
  if (request === undefined) return undefined;
  try {
    const copy = structuredClone(request);
    return withinBudget(copy) ? JSON.parse(JSON.stringify(copy)) : NOT_JSON;
  } catch {
    return NOT_JSON;
  }
}

/** The most values (each array item, member value and scalar) a request may hold. */
const MAX_REQUEST_VALUES = 100_000;

/**
 * withinBudget walks a structured-clone copy counting every value it
 * reaches, a shared one each time it is reached, and stops past
 * MAX_REQUEST_VALUES: a few bytes of structured clone can hold an array of
 * length 2^32 - 1 or a value that shares its halves forty levels deep, and
 * serialising either would hold the page for minutes or exhaust its memory.
 * @param {unknown} v
 */
function withinBudget(v) {
  let left = MAX_REQUEST_VALUES;
  /** @param {unknown} x @returns {boolean} */
  const walk = (x) => {
    if (--left < 0) return false;
    if (x === null || typeof x !== "object") return true;
    if (Array.isArray(x)) {
      if (x.length > left) return false;
      for (let i = 0; i < x.length; i++) if (!walk(x[i])) return false;
      return true;
    }
    for (const k of Object.keys(x)) if (!walk(/** @type {any} */ (x)[k])) return false;
    return true;
  };
  return walk(v);
}

const notJSON = (/** @type {string} */ what) =>
  errorOf("invalid_request", `${what} request is JSON data (objects, arrays, strings, numbers, booleans and null) of at most ${MAX_REQUEST_VALUES} values`, "request");

/**
 * Agent answers an agent's describe and execute.
 * @implements {AgentRoom}
 */
export class Agent {
  /** @param {AgentOptions} o */
  constructor(o) {
    this.sync = o.sync;
    this.caller = o.caller;
    this.audit = o.audit;
    this.actions = o.actions;
    this.onActionError = o.onActionError;
    this.closed = o.closed;
  }

  /**
   * refuseDescribe answers why a describe request is refused before the module sees it, or null.
   * @param {DescribeRequest | undefined} request
   * @returns {Promise<PinholeError | null>}
   */
  async refuseDescribe(request) {
    if (this.closed()) return errorOf("not_loaded", "the bridge was disposed");
    if (request !== undefined && (request === null || typeof request !== "object" || Array.isArray(request))) {
      return errorOf("invalid_request", "a describe request is an object", "request");
    }
    if (request && Object.hasOwn(request, "op")) {
      return errorOf("invalid_request", "a describe request has no op parameter", "op");
    }
    await this.sync.flush();
    return this.sync.error;
  }

  /**
   * @param {DescribeRequest} [request]
   * @returns {Promise<string>} the describe answer as text
   */
  async describeText(request) {
    const plain = plainRequest(request);
    if (plain === NOT_JSON) return agentJSON(notJSON("a describe"));
    request = plain;
    const refused = await this.refuseDescribe(request);
    if (refused) return agentJSON(refused);
    const out = await this.caller.sendText({ op: "describe", ...request });
    await this.audit.drain();
    return out;
  }

  /**
   * @param {DescribeRequest} [request]
   * @returns {Promise<any>} the describe answer
   */
  async describe(request) {
    const plain = plainRequest(request);
    if (plain === NOT_JSON) return notJSON("a describe");
    request = plain;
    const refused = await this.refuseDescribe(request);
    if (refused) return refused;
    const out = await this.caller.send({ op: "describe", ...request });
    await this.audit.drain();
    return out;
  }

  /**
   * @param {ExecuteRequest} request
   * @returns {Promise<ExecuteResult | PinholeError>}
   */
  async execute(request) {
    if (this.closed()) return errorOf("not_loaded", "the bridge was disposed");
    const plain = plainRequest(request);
    if (plain === NOT_JSON) return notJSON("an execute");
    request = plain;
    if (!request || typeof request !== "object" || typeof request.capability !== "string") {
      return errorOf("invalid_request", "execute needs an object with a string capability", "capability");
    }
    // An agent acts on what it was shown: without the snapshot of that
    // describe the module could not refuse a stale decision, and there
    // would be no after to say what the action changed.
    if (typeof request.snapshot !== "string" || request.snapshot === "") {
      return errorOf("invalid_request", "execute needs the snapshot of the describe the decision was made on (its \"snapshot\"); describe first", "snapshot");
    }
    const bad = request.input === undefined ? null : prototypeKey(request.input);
    if (bad !== null) return prototypeKeyError(bad);
    await this.sync.flush();
    if (this.sync.error) return this.sync.error;
    // The agent's snapshot id goes as it is: the caller maps it to the
    // module's own when it sends, and again if it must resend after a trap.
    const since = request.snapshot;
    /** @type {Record<string, unknown> & {op: string}} */
    const prep = { op: "prepare", capability: request.capability };
    if (request.record !== undefined) prep.record = request.record;
    if (request.input !== undefined) prep.input = request.input;
    prep.snapshot = since;
    const prepared = await this.caller.send(prep);
    if ("error" in prepared) {
      await this.audit.drain();
      return prepared;
    }
    const handler = handlerOf(this.actions, request.capability);
    if (!handler) {
      return errorOf("unknown_capability", "the application has no handler for this capability", "capability");
    }
    // The module resolved the tokens in the slots: a prototype key in the
    // prepared input is inside a resolved value (the agent's own keys were
    // refused above), so the answer names the slot, never the path in it.
    const resolvedBad = prepared.input === undefined ? null : prototypePath(prepared.input);
    if (resolvedBad !== null) return resolvedValueError(slotOf(request.input, resolvedBad));
    /** @type {ResolvedRequest} */
    const resolved = { capability: prepared.capability, snapshot: request.snapshot };
    if (prepared.record !== undefined) resolved.record = prepared.record;
    if (prepared.input !== undefined) resolved.input = prepared.input;
    try {
      await handler.call(this.actions, resolved);
    } catch (err) {
      this.audit.emit({ source: "bridge", kind: "action_error", capability: request.capability });
      if (this.onActionError) {
        try {
          this.onActionError(err, request.capability);
        } catch {
          // ignore
        }
      }
      return errorOf("action_failed", "the application's handler for this capability failed", "capability");
    }
    if (this.closed()) return errorOf("not_loaded", "the bridge was disposed");
    this.sync.touch();
    await this.sync.flush();
    const snapshot = this.sync.snapshot;
    if (this.sync.error || this.caller.internal(since) === null) {
      await this.audit.drain();
      return { ok: true, snapshot };
    }
    const after = await this.caller.send({ op: "after", since });
    await this.audit.drain();
    // A failed after may have restarted the module: the snapshot is the one it holds now.
    if (after === null || "error" in after) return { ok: true, snapshot: this.sync.snapshot };
    return { ok: true, snapshot, after };
  }
}

/**
 * handlerNames lists the names under which actions holds handlers: its
 * own functions and its class's methods (not a Proxy's, which answers
 * names it is asked for only). It reads property descriptors, so that no
 * getter of the app's runs.
 * @param {unknown} actions
 * @returns {string[]}
 */
export function handlerNames(actions) {
  /** @type {Set<string>} */
  const names = new Set();
  /** Names met nearer the object: what it reads under them is theirs (a getter shadowing a method is no handler). @type {Set<string>} */
  const seen = new Set();
  for (let o = /** @type {any} */ (actions); o && o !== Object.prototype && o !== Function.prototype; o = Object.getPrototypeOf(o)) {
    for (const n of Object.getOwnPropertyNames(o)) {
      if (seen.has(n)) continue;
      seen.add(n);
      const d = Object.getOwnPropertyDescriptor(o, n);
      if (d && typeof d.value === "function" && handlerOf(actions, n)) names.add(n);
    }
  }
  return [...names];
}

/**
 * handlerOf returns the app's handler for a capability: a function found
 * under its name in actions, own or inherited (a class's methods, a
 * Proxy that dispatches), but never what every object or function
 * inherits (Object.prototype's and Function.prototype's members, a class
 * instance's constructor): a capability named "toString" or "constructor"
 * without a handler has none.
 * @param {unknown} actions @param {string} capability
 * @returns {Function | undefined}
 */
export function handlerOf(actions, capability) {
  if (actions === null || typeof actions !== "object" && typeof actions !== "function") return undefined;
  const h = /** @type {any} */ (actions)[capability];
  if (typeof h !== "function" || h === /** @type {any} */ (Object.prototype)[capability] ||
    h === /** @type {any} */ (Function.prototype)[capability]) return undefined;
  return capability === "constructor" && !Object.hasOwn(/** @type {object} */ (actions), capability) ? undefined : h;
}

/**
 * manifestText is the manifest as the module reads it: JSON text, without
 * the byte order mark an editor may have put before it.
 * @param {unknown} manifest
 */
export function manifestText(manifest) {
  return typeof manifest === "string" ? manifest.replace(/^\uFEFF/, "") : JSON.stringify(manifest);
}

/**
 * capabilityNames returns the names of a manifest's capabilities, from the
 * manifest or its text; none when it is not JSON (the module's load says
 * why), and names that are not strings are left for its error.
 * @param {unknown} manifest
 * @returns {string[]}
 */
export function capabilityNames(manifest) {
  let m;
  try {
    m = JSON.parse(/** @type {string} */ (manifestText(manifest)));
  } catch {
    return [];
  }
  return namesIn(m);
}

/**
 * namesIn returns the capability names of a parsed manifest (see
 * capabilityNames).
 * @param {any} m
 * @returns {string[]}
 */
export function namesIn(m) {
  return Array.isArray(m?.capabilities)
    ? m.capabilities.map((/** @type {any} */ c) => c?.name).filter((/** @type {unknown} */ n) => typeof n === "string")
    : [];
}
