// The example apps as their users build them: each installs the packed
// tarball, is built by its real tool (the build fails this test on any
// warning line), served as static files, and driven in headless Chromium:
// the agent sees the least-exposure context, executes a capability, gets
// `after`, and the page shows the app's store changed. script-tag is the
// page without modules: an IIFE bundle that finds pinhole.wasm beside it. The Vite app is also
// run under Vite's dev server, where React's StrictMode mounts twice: the
// module is still fetched once. In each, the module runs in a dedicated Web
// Worker (the bridge's default in a page): the page fetches no wasm, the
// worker does. `make test-examples` installs and runs it.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { launchOptions } from "../../chromium.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const examples = resolve(here, "..");
const SECRETS = ["tok_live_4242", "tok_live_1881", "tok_live_1906", "sk_live_secret", "ada@example.com", "alan@example.com"];
const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".wasm": "application/wasm", ".css": "text/css" };

let browser;
before(async () => {
  browser = await chromium.launch(launchOptions());
});
after(async () => {
  await browser?.close();
});

/** build runs the example's npm build and fails on an error or any warning line. */
function build(name) {
  const r = spawnSync("npm", ["run", "--silent", "build"], { cwd: join(examples, name), encoding: "utf8", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
  const out = `${r.stdout}\n${r.stderr}`;
  assert.equal(r.status, 0, out);
  assert.match(out, /pinhole[^\n]*\.wasm|\.wasm[^\n]*pinhole/i, `the build did not emit pinhole.wasm:\n${out}`);
  const warnings = out.split("\n").filter((l) => /warn|\(!\)|deprecat/i.test(l));
  assert.deepEqual(warnings, [], `the build warned:\n${out}`);
}

/** serve serves dir on 127.0.0.1 (a free port) with the content types a browser needs. */
function serve(dir) {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    const file = normalize(join(dir, decodeURIComponent(path.endsWith("/") ? path + "index.html" : path)));
    if (!file.startsWith(dir + sep)) return res.writeHead(403).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok({
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(done); }),
  })));
}

/**
 * agentRound opens url in a fresh browser context, then does what an agent
 * does through the page's panel: describe, ship A-1, read after.
 */
async function agentRound(url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(30000);
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`); });
  const wasmRequests = [];
  page.on("request", (r) => { if (new URL(r.url()).pathname.endsWith(".wasm")) wasmRequests.push(r.url()); });
  try {
    await page.goto(url);
    await page.waitForSelector("#agent[data-ready=true]");
    // The module runs in a dedicated worker: the page itself fetched no wasm (so it compiled and instantiated none).
    const wasmFetched = () => performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wasm")).length;
    assert.equal(await page.evaluate(wasmFetched), 0, "the page fetched pinhole.wasm itself");
    const workers = page.workers();
    assert.equal(workers.length, 1, "one worker hosts the module");
    assert.equal(await workers[0].evaluate(wasmFetched), 1, "the worker fetched pinhole.wasm");
    await page.click("#describe");
    await page.waitForFunction(() => document.querySelector("#context")?.textContent.length > 0);
    const described = JSON.parse(await page.textContent("#context"));
    assert.deepEqual(described.context.recordIds, ["A-1", "A-2", "A-3"]);
    assert.equal(described.context.records[0].fields.email, "a***@example.com", "e-mail masked");
    assert.deepEqual(described.context.unavailable.map((u) => u.record), ["A-2"]);
    assert.equal(await page.textContent('tr[data-id="A-1"] .status'), "ready");

    await page.click("#ship");
    await page.waitForFunction(() => document.querySelector("#result")?.textContent.length > 0);
    const shipped = JSON.parse(await page.textContent("#result"));
    assert.equal(shipped.ok, true, JSON.stringify(shipped));
    assert.equal(shipped.after.from, described.snapshot);
    assert.deepEqual(shipped.after.records.changed, [{ id: "A-1", region: "orders", fields: { status: "shipped" } }]);
    await page.waitForFunction(() => document.querySelector('tr[data-id="A-1"] .status')?.textContent === "shipped");

    const seen = JSON.stringify([described, shipped]);
    for (const s of SECRETS) assert.ok(!seen.includes(s), `${s} reached the agent`);
    assert.equal(wasmRequests.length, 1, `pinhole.wasm fetched ${wasmRequests.length} times: ${wasmRequests}`);
    assert.deepEqual(problems, []);
    return { page, wasmRequests };
  } finally {
    await context.close();
  }
}

test("each example depends on this version's tarball, and its lockfile leaves the tarball's integrity out", () => {
  const version = JSON.parse(readFileSync(resolve(examples, "../../js/package.json"), "utf8")).version;
  for (const name of ["vite-react", "webpack", "script-tag"]) {
    const pkg = JSON.parse(readFileSync(join(examples, name, "package.json"), "utf8"));
    assert.equal(pkg.dependencies["@pinholectx/pinhole"], `file:../../../build/pinholectx-pinhole-${version}.tgz`, name);
    const lock = JSON.parse(readFileSync(join(examples, name, "package-lock.json"), "utf8"));
    const entry = lock.packages["node_modules/@pinholectx/pinhole"];
    assert.equal(entry.resolved, `file:../../../build/pinholectx-pinhole-${version}.tgz`, name);
    // A recorded integrity would make the next install fail as soon as the module changes.
    assert.equal("integrity" in entry, false, `${name}/package-lock.json records the tarball's integrity`);
  }
});

for (const name of ["vite-react", "webpack", "script-tag"]) {
  test(`${name}: the build emits pinhole.wasm without a warning, and the agent describes, ships and gets after in Chromium`, async () => {
    build(name);
    const server = await serve(join(examples, name, "dist"));
    try {
      await agentRound(server.url);
    } finally {
      await server.close();
    }
  });
}

test("vite-react under Vite's dev server (React StrictMode mounts twice): one module fetch, one bridge", async () => {
  const dir = join(examples, "vite-react");
  const port = await freePort();
  const vite = spawn(process.execPath, [join(dir, "node_modules/vite/bin/vite.js"), "--host", "127.0.0.1", "--port", String(port), "--strictPort"],
    { cwd: dir, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  vite.stdout.on("data", (d) => { out += d; });
  vite.stderr.on("data", (d) => { out += d; });
  try {
    const url = `http://127.0.0.1:${port}/`;
    for (let i = 0; !/ready in/i.test(out); i++) {
      if (i > 300 || vite.exitCode !== null) assert.fail(`vite dev did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await agentRound(url);
    assert.doesNotMatch(out, /warn|error/i, out);
  } finally {
    vite.kill();
  }
});

/** freePort asks the system for a port that is free now. */
function freePort() {
  return new Promise((ok) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}
