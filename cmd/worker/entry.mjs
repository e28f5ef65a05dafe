// Worker entry. API paths go to the Go handler; every other GET or HEAD is
// served from the ASSETS binding (the demo page and pinhole.wasm) when one
// is bound, without running Go. Under wrangler, ASSETS is the static assets
// binding; under plain workerd it is a disk service (workerd.capnp).
//
// One Go instance serves every request of the isolate. It is started on the
// first request (the global scope may not run Go: its start-up draws random
// numbers) and kept. Requests that overlap share it: each is forwarded
// through syumai/workers' handleRequest with a tag (header X-Pinhole-Call)
// under which this module holds the request's own env and ctx, and the Go
// side (main_js.go) reads them from there. An instance retires when Go
// asks (a panic it recovered), when its memory has grown past
// RETIRE_BYTES, and dies when the Go program ends or traps: requests it
// was serving then get a 500 internal_error, and the next request starts
// a fresh instance. PINHOLE_INSTANCE=request starts one per request instead
// (more isolation between requests, several milliseconds of CPU each).
//
// This replaces syumai/workers' own glue (worker.mjs, runtime.mjs), which
// starts a fresh instance for every request; its wasm_exec.js is used as is.

import "./wasm_exec.js";
import app from "./app.wasm";
import bundled from "./manifests.json";
import { cancelBody, readBody } from "./body.mjs";

/**
 * Manifests bundled at build time (`make worker WORKER_MANIFESTS=...`),
 * as the PINHOLE_MANIFESTS text the Go handler reads when the environment
 * sets none: Worker variables are limited to 5 KB, most manifests are not.
 */
const MANIFESTS = JSON.stringify(bundled);

/**
 * An instance whose linear memory has grown past this many bytes serves
 * no new requests: wasm memory never shrinks, so one large request would
 * otherwise hold its peak for the isolate's lifetime.
 */
const RETIRE_BYTES = 96 << 20;

// syumai/workers' Go side calls globalThis.tryCatch (its glue defines it).
globalThis.tryCatch ??= (/** @type {() => unknown} */ fn) => {
  try {
    return { result: fn() };
  } catch (error) {
    return { error };
  }
};

/** Paths the Go handler owns. */
const API = /^\/(v1(\/|$)|healthz$)/;

/** Content types for asset extensions a disk service does not type. */
const TYPES = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json",
  jsonl: "application/x-ndjson",
  wasm: "application/wasm",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  txt: "text/plain; charset=utf-8",
  map: "application/json",
};

/**
 * Serves one asset, or returns null when there is none.
 * @param {Request} req
 * @param {{ASSETS?: {fetch: (r: Request) => Promise<Response>}}} env
 * @returns {Promise<Response|null>}
 */
async function asset(req, env) {
  if (!env.ASSETS || (req.method !== "GET" && req.method !== "HEAD")) return null;
  const url = new URL(req.url);
  if (url.pathname.endsWith("/")) url.pathname += "index.html";
  const res = await env.ASSETS.fetch(new Request(url, { method: req.method, headers: req.headers }));
  if (res.status === 404 || res.status === 405) return null;
  const ext = url.pathname.slice(url.pathname.lastIndexOf(".") + 1).toLowerCase();
  const type = res.headers.get("content-type");
  if (type && type !== "application/octet-stream") return res;
  const out = new Response(res.body, res);
  out.headers.set("content-type", TYPES[ext] ?? "application/octet-stream");
  out.headers.set("x-content-type-options", "nosniff");
  return out;
}

/**
 * @typedef {object} Call what the Go side reads under a request's tag
 * @property {Record<string, unknown>} env
 * @property {ExecutionContext} ctx
 * @property {Request} request the request as the Worker received it
 */

/**
 * @typedef {object} Instance one running Go program
 * @property {{handleRequest: (req: Request) => Promise<Response>}} binding set by the Go side
 * @property {Map<string, Call>} calls requests in flight, by tag
 * @property {Set<() => void>} watchers called when the program dies, one per request in flight
 * @property {WebAssembly.Instance} wasm
 * @property {boolean} retired serves no new requests
 * @property {boolean} dead the Go program has ended or trapped
 */

/** Tags for requests in flight; unique within the isolate. */
let lastTag = 0;

/** The isolate's shared instance, while it serves new requests. */
let shared = /** @type {Promise<Instance>|null} */ (null);
let sharedInstance = /** @type {Instance|null} */ (null);

/**
 * Takes an instance out of service: later requests start a fresh one.
 * @param {Instance} inst
 */
function retire(inst) {
  inst.retired = true;
  if (sharedInstance === inst) shared = sharedInstance = null;
}

/**
 * Starts a Go instance and waits until its handler is set.
 *
 * Promises made in one request can settle only in that request under
 * workerd, and an instance outlives the request that started it: so the
 * end of the program is seen where wasm_exec.js notices it (its
 * _resolveExitPromise, called in whichever request is running Go) and
 * passed to each request in flight through a promise of its own (watchers).
 * @returns {Promise<Instance>}
 */
async function start() {
  // wasm_exec.js defines Go on the global object.
  const go = new /** @type {any} */ (globalThis).Go();
  /** @type {Instance} */
  const inst = {
    binding: /** @type {any} */ ({}),
    calls: new Map(),
    watchers: new Set(),
    wasm: /** @type {any} */ (null),
    retired: false,
    dead: false,
  };
  const die = () => {
    if (inst.dead) return;
    inst.dead = true;
    retire(inst);
    for (const w of inst.watchers) w();
  };
  /** @type {(v: unknown) => void} */
  let ready = () => {};
  const started = new Promise((resolve) => {
    ready = resolve;
    inst.watchers.add(() => resolve(undefined));
  });
  const context = {
    binding: inst.binding,
    calls: inst.calls,
    retire: () => retire(inst),
    readBody,
    cancelBody,
    memoryBytes: () => inst.wasm.exports.mem.buffer.byteLength,
  };
  inst.wasm = new WebAssembly.Instance(app, { ...go.importObject, workers: { ready: () => ready(undefined) } });
  go._resolveExitPromise = die;
  // A trap (a wasm runtime error) leaves the Go program unusable without
  // ending it: count it as its end.
  const resume = go._resume.bind(go);
  go._resume = () => {
    try {
      resume();
    } catch (e) {
      die();
      throw e;
    }
  };
  go.run(inst.wasm, context).catch(die);
  await started;
  inst.watchers.clear();
  if (inst.dead) throw new Error("the Go program ended while starting");
  return inst;
}

/**
 * The isolate's shared instance, started when there is none.
 * @returns {Promise<Instance>}
 */
function current() {
  if (!shared) {
    const p = start().then((inst) => {
      if (shared === p) sharedInstance = inst;
      return inst;
    });
    shared = p;
    p.catch(() => {
      if (shared === p) shared = null;
    });
  }
  return shared;
}

/**
 * The answer to a request the Go side could not complete: the error
 * envelope and headers the Go handler gives every error (cmd/worker
 * README, "Errors").
 * @param {Request} req
 * @param {Record<string, unknown>} env
 * @returns {Response}
 */
function failed(req, env) {
  const headers = new Headers({
    "content-type": "application/json",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  const origins = String(env.PINHOLE_ALLOWED_ORIGINS ?? "").split(/[, ]/).filter(Boolean);
  const origin = req.headers.get("origin");
  if (origins.length > 0) headers.set("vary", "Origin");
  if (origin && origins.includes(origin)) headers.set("access-control-allow-origin", origin);
  const body = '{"error":{"code":"internal_error","message":"the Worker failed on this request; it was not completed"}}';
  return new Response(body, { status: 500, headers });
}

/**
 * Serves one request with the Go handler, in the shared instance (or a
 * fresh one with PINHOLE_INSTANCE=request), with its own env and ctx.
 * @param {Request} req
 * @param {Record<string, unknown>} env
 * @param {ExecutionContext} ctx
 * @returns {Promise<Response>}
 */
async function serve(req, env, ctx) {
  const own = env.PINHOLE_INSTANCE === "request";
  let inst;
  try {
    inst = await (own ? start() : current());
    // Retired or dead while this request waited for it (a request beside
    // it panicked): this request has not started, so it takes a fresh one.
    if (inst.retired && !own) inst = await current();
  } catch (e) {
    console.error("pinhole worker: the Go instance did not start:", String(e));
    return failed(req, env);
  }
  const tag = String(++lastTag);
  const headers = new Headers(req.headers);
  headers.set("x-pinhole-call", tag);
  inst.calls.set(tag, { env, ctx, request: req });
  /** @type {() => void} */
  let gone = () => {};
  const ended = new Promise((resolve) => (gone = () => resolve(null)));
  inst.watchers.add(gone);
  try {
    const res = await Promise.race([inst.binding.handleRequest(new Request(req, { headers })), ended]);
    if (res) return res;
    console.error("pinhole worker: the Go program ended while serving a request; the next request starts a fresh instance");
  } catch (e) {
    if (inst.dead) console.error("pinhole worker: the Go program ended while serving a request; the next request starts a fresh instance");
    else console.error("pinhole worker: the Go handler failed:", String(e));
  } finally {
    inst.calls.delete(tag);
    inst.watchers.delete(gone);
    if (own || inst.wasm.exports.mem.buffer.byteLength > RETIRE_BYTES) retire(inst);
  }
  return failed(req, env);
}

export default {
  /**
   * @param {Request} req
   * @param {Record<string, unknown>} env
   * @param {ExecutionContext} ctx
   */
  async fetch(req, env, ctx) {
    if (!API.test(new URL(req.url).pathname)) {
      const res = await asset(req, env);
      if (res) return res;
    }
    const withManifests = env.PINHOLE_MANIFESTS ? env : Object.assign(Object.create(env), { PINHOLE_MANIFESTS: MANIFESTS });
    return serve(req, withManifests, ctx);
  },
};
