// A tiny static server for the demo: web/dist, the module at /pinhole.wasm
// (build/pinhole.wasm, served as application/wasm) and the conformance
// vectors under /vectors/ (index.json lists them). It binds to 127.0.0.1
// only. `node serve.mjs [port]` prints the address; tests import startServer.
//
// Every file is sent with `Cache-Control: no-cache` and an ETag (a hash of
// its bytes): the browser keeps it and asks each time whether it changed,
// and a 304 lets it reuse what it holds, for pinhole.wasm also its compiled
// code when the browser keeps that (compileStreaming of a cached response).
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { readFile, readdir } from "node:fs/promises";
import { dirname, extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
const types = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
  ".json": "application/json", ".jsonl": "application/x-ndjson", ".map": "application/json",
  ".wasm": "application/wasm", ".png": "image/png",
};

/** inside returns the file under root named by the URL path, or null when it escapes root. */
function inside(root, urlPath) {
  const p = normalize(join(root, decodeURIComponent(urlPath)));
  return p === root || p.startsWith(root + sep) ? p : null;
}

/**
 * startServer serves the demo on 127.0.0.1 (port 0 picks a free one) and
 * resolves to { url, port, close() }.
 * @param {{port?: number, dist?: string, wasm?: string, vectors?: string}} [opts]
 */
export function startServer(opts = {}) {
  const dist = opts.dist ?? join(here, "dist");
  const wasm = opts.wasm ?? join(repo, "build", "pinhole.wasm");
  const vectors = opts.vectors ?? join(repo, "testdata", "vectors");
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    let file = null;
    try {
      if (url.pathname === "/pinhole.wasm") file = wasm;
      else if (url.pathname === "/vectors/index.json") {
        const names = (await readdir(vectors).catch(() => [])).filter((n) => n.endsWith(".in.jsonl")).sort();
        return send(res, 200, ".json", JSON.stringify(names.map((n) => n.slice(0, -".in.jsonl".length))), req);
      } else if (url.pathname.startsWith("/vectors/")) file = inside(vectors, url.pathname.slice("/vectors".length));
      else file = inside(dist, url.pathname.endsWith("/") ? url.pathname + "index.html" : url.pathname);
      if (!file) return send(res, 403, ".txt", "forbidden");
      send(res, 200, extname(file), await readFile(file), req);
    } catch {
      send(res, 404, ".txt", "not found");
    }
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(opts.port ?? 0, "127.0.0.1", () => {
      const { port } = server.address();
      ok({ url: `http://127.0.0.1:${port}/`, port, close: () => new Promise((done) => { server.closeAllConnections(); server.close(done); }) });
    });
  });
}

/**
 * send answers with body; a 200 carries an ETag of the body and is answered
 * 304 (no body) when the request's If-None-Match names that ETag.
 * @param {import("node:http").ServerResponse} res
 * @param {number} status @param {string} ext @param {string | Buffer} body
 * @param {import("node:http").IncomingMessage} [req]
 */
function send(res, status, ext, body, req) {
  const headers = { "content-type": types[ext] ?? "application/octet-stream", "cache-control": "no-store" };
  if (status === 200) {
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    Object.assign(headers, { "cache-control": "no-cache", etag });
    const match = req?.headers["if-none-match"];
    if (match && match.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)) {
      res.writeHead(304, { "cache-control": "no-cache", etag });
      return res.end();
    }
  }
  res.writeHead(status, headers);
  res.end(body);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2] ?? process.env.PORT ?? 4173);
  const s = await startServer({ port }).catch((e) => {
    if (e.code !== "EADDRINUSE") throw e;
    return startServer({ port: 0 });
  });
  console.log(`Pinhole demo: ${s.url}  (vectors: ${s.url}vectors.html)  Ctrl-C stops it`);
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => s.close().then(() => process.exit(0)));
}
