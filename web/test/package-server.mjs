// A static server for tests that load the package the way an app without a
// bundler does: the bridge's own sources (js/src) where an installed package
// keeps them, pinhole.wasm beside src/ as `make pack` puts it, Zustand's ESM
// build, and testdata/orders; the test's page at "/", with IMPORT_MAP
// resolving the package's specifiers. Nothing is built or rewritten.
// Shared by nobundler.test.mjs and webmcp-native.test.mjs.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { dirname, extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const repo = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
/** Where an installed package's files are, as the page sees them. */
export const PKG = "/node_modules/@pinholectx/pinhole";
/** Zustand's ESM build of zustand/vanilla, as Node resolves it for the demo (no imports of its own). */
const ZUSTAND = fileURLToPath(import.meta.resolve("zustand/vanilla"));
const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json", ".wasm": "application/wasm",
};

/** The import map appPage puts in its <script type="importmap">. */
const IMPORT_MAP = {
  imports: {
    "@pinholectx/pinhole": `${PKG}/src/index.js`,
    "@pinholectx/pinhole/zustand": `${PKG}/src/adapters/zustand.js`,
    "zustand/vanilla": "/vendor/zustand-vanilla.mjs",
  },
};

/**
 * appPage is a test's page: an app without a bundler that imports the
 * package through IMPORT_MAP, fetches the orders manifest and state, makes
 * a Zustand store of the state, then runs body (a module's statements, with
 * createPinhole, fromZustand, manifest, state and store in scope). The page
 * marks itself ready (html[data-ready=true]) when body has run, or puts the
 * error in window.result.error (data-ready=error): the imports are dynamic
 * so that a module that fails to resolve is reported there too.
 * @param {string} title @param {string} body
 */
export function appPage(title, body) {
  return `<!doctype html>
<meta charset="utf-8">
<title>${title}</title>
<link rel="icon" href="data:,">
<script type="importmap">${JSON.stringify(IMPORT_MAP)}</script>
<script type="module">
const html = document.documentElement;
try {
  const { createPinhole } = await import("@pinholectx/pinhole");
  const { fromZustand } = await import("@pinholectx/pinhole/zustand");
  const { createStore } = await import("zustand/vanilla");
  const [manifest, state] = await Promise.all(["/testdata/orders/manifest.json", "/testdata/orders/state.json"]
    .map((u) => fetch(u).then((r) => r.json())));
  const store = createStore(() => state);
${body}
  html.dataset.ready = "true";
} catch (err) {
  window.result = { error: String(err?.stack ?? err) };
  html.dataset.ready = "error";
}
</script>
`;
}

/**
 * openApp opens url in a new context of browser and waits until the page
 * has run (html[data-ready], ready or error). problems collects what went
 * wrong on the way: page errors, console errors and warnings, responses of
 * 400 and above. The caller closes context.
 * @param {import("playwright-core").Browser} browser @param {string} url
 */
export async function openApp(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(30000);
  /** @type {string[]} */
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()} ${m.location().url}`); });
  page.on("response", (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${new URL(r.url()).pathname}`); });
  await page.goto(url);
  await page.waitForSelector("html[data-ready]", { state: "attached" });
  return { context, page, problems };
}

/** file maps a URL path to the file served for it, or null. @param {string} path */
function file(path) {
  /** @param {string} root @param {string} rest */
  const under = (root, rest) => {
    const p = normalize(join(root, decodeURIComponent(rest)));
    return p.startsWith(root + sep) ? p : null;
  };
  if (path === `${PKG}/pinhole.wasm`) return join(repo, "build", "pinhole.wasm");
  if (path.startsWith(`${PKG}/src/`)) return under(join(repo, "js", "src"), path.slice(`${PKG}/src`.length));
  if (path === "/vendor/zustand-vanilla.mjs") return ZUSTAND;
  if (path.startsWith("/testdata/orders/")) return under(join(repo, "testdata", "orders"), path.slice("/testdata/orders".length));
  return null;
}

/**
 * servePackage serves page at "/" and the package's files on 127.0.0.1.
 * @param {string} page the HTML of "/"
 * @returns {Promise<{url: string, close(): Promise<void>}>}
 */
export async function servePackage(page) {
  const http = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/") return res.writeHead(200, { "content-type": TYPES[".html"] }).end(page);
    const f = file(path);
    try {
      if (!f) throw new Error("not served");
      const body = await readFile(f);
      res.writeHead(200, { "content-type": TYPES[/** @type {keyof TYPES} */ (extname(f))] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  await new Promise((ok) => http.listen(0, "127.0.0.1", () => ok(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (http.address());
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () => new Promise((done) => { http.closeAllConnections(); http.close(() => done()); }),
  };
}
