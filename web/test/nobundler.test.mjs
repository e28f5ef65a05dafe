// The package without a bundler, in headless Chromium: a static page loads
// the bridge's own sources (js/src, served where an installed package keeps
// them, with pinhole.wasm beside src/ as `make pack` puts it) as ES modules
// through an import map, and Zustand's ESM build the same way. Nothing is
// built or rewritten. The bridge must start its worker from those same
// unbundled sources (an import map does not apply inside a worker, so every
// import the worker makes must be relative), find pinhole.wasm at its
// default location (`../pinhole.wasm` from src/) and answer with the
// context of the orders state: the module runs in the worker, not on the
// page after a silent fallback.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { launchOptions } from "../chromium.mjs";
import { PKG, appPage, openApp, servePackage } from "./package-server.mjs";

const PAGE = appPage("Pinhole without a bundler", `
  const pinhole = await createPinhole({ manifest, store: fromZustand(store) });
  const d = await pinhole.describe({});
  window.app = { pinhole, store };
  window.result = { host: pinhole.host, recordsTotal: d.context.recordsTotal, snapshot: d.snapshot };`);

let server, url, browser;
before(async () => {
  server = await servePackage(PAGE);
  url = server.url;
  browser = await chromium.launch(launchOptions());
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** wasmResources lists the .wasm fetches a realm (page or worker) made. */
const wasmResources = () => performance.getEntriesByType("resource").map((e) => e.name).filter((n) => n.endsWith(".wasm"));

test("without a bundler: an import map loads the package's sources; the module runs in the worker and the context arrives", async () => {
  const { context, page, problems } = await openApp(browser, url);
  try {
    const result = await page.evaluate(() => window.result);
    assert.equal(result.error, undefined, `the page failed: ${result.error}\n${problems.join("\n")}`);

    // (b) The bridge runs the module in its worker, started from the unbundled src/worker.js.
    assert.equal(result.host, "worker", "the bridge fell back to the main thread: the worker could not start");
    const workers = page.workers();
    assert.deepEqual(workers.map((w) => new URL(w.url()).pathname), [`${PKG}/src/worker.js`]);
    assert.deepEqual(await page.evaluate(wasmResources), [], "the page fetched pinhole.wasm itself");
    assert.deepEqual((await workers[0].evaluate(wasmResources)).map((u) => new URL(u).pathname), [`${PKG}/pinhole.wasm`],
      "the worker fetched the package's pinhole.wasm, beside src/");

    // (a) The context of testdata/orders/state.json arrives, and follows the store.
    assert.equal(result.recordsTotal, 48);
    const next = await page.evaluate(async () => {
      const { pinhole, store } = window.app;
      const s = store.getState();
      store.setState({ orders: { ...s.orders, items: s.orders.items.slice(0, 5) } });
      const d = await pinhole.describe({});
      return { recordsTotal: d.context.recordsTotal, snapshot: d.snapshot };
    });
    assert.equal(next.recordsTotal, 5, "the store's change did not reach the module");
    assert.notEqual(next.snapshot, result.snapshot);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
