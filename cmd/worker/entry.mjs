// Worker entry: API paths go to the Go handler (syumai/workers' worker.mjs,
// which starts a fresh Go instance per request); every other GET or HEAD
// is served from the ASSETS binding (the demo page and pinhole.wasm) when
// one is bound, without starting Go. Under wrangler, ASSETS is the static
// assets binding; under plain workerd it is a disk service (workerd.capnp).

import worker from "./worker.mjs";
import bundled from "./manifests.json";

/**
 * Manifests bundled at build time (`make worker WORKER_MANIFESTS=...`),
 * as the PINHOLE_MANIFESTS text the Go handler reads when the environment
 * sets none: Worker variables are limited to 5 KB, most manifests are not.
 */
const MANIFESTS = JSON.stringify(bundled);

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
    return worker.fetch(req, withManifests, ctx);
  },
};
