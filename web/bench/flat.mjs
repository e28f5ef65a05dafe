// Flat cost as the store grows, and start-up caching, in headless Chromium
// (reported, not asserted; writes build/bench-flat-chromium.json):
//
// 1. A cold observe of 10,000, 30,000 and 100,000 orders (the bridge's first
//    sync), with the module as shipped and the module built without its
//    one-step heap reservation (build/pinhole-noreserve.wasm), interleaved,
//    each sample in a fresh browser context: ms per MB of request, and the
//    module's memory after the call.
// 2. First and repeat visits: compileStreaming(fetch("/pinhole.wasm")) as
//    served by web/serve.mjs (ETag, no-cache) on a persistent profile (a
//    disk cache, as a user's browser has), on a first visit and on repeat
//    visits, with the browser restarted between visits and, apart, in new
//    pages of one browser; beside each, the same with `cache: "no-store"`,
//    which fetches and compiles anew every time. A repeat visit much faster
//    than the no-store one means Chromium reused its compiled code.
//
//   node web/bench/flat.mjs [--quick]     (after make wasm and bench-flat's module)
import * as esbuild from "esbuild";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { inFreshPage, launchOptions } from "../chromium.mjs";
import { startServer } from "../serve.mjs";
import { summarize } from "./measure.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const outDir = join(repo, "build");
const pageDir = join(outDir, "bench-flat-web");
const quick = process.argv.includes("--quick");
const SIZES = quick ? [10000, 30000] : [10000, 30000, 100000];
const RUNS = quick ? 1 : 3;
const VISITS = quick ? 3 : 4;
const started = Date.now();
const log = (/** @type {string} */ m) => process.stderr.write(`[flat ${Math.round((Date.now() - started) / 1000)} s] ${m}\n`);

mkdirSync(pageDir, { recursive: true });
await esbuild.build({
  entryPoints: { flat: join(here, "flat-page.mjs") }, outdir: pageDir, bundle: true, format: "esm", target: "chrome120",
  platform: "browser", external: ["node:*"], define: { "process.argv": "[]" }, logLevel: "warning", absWorkingDir: here,
});
writeFileSync(join(pageDir, "index.html"), '<!doctype html><meta charset="utf-8"><title>Pinhole: flat cost</title><script type="module" src="flat.js"></script>\n');
copyFileSync(join(outDir, "pinhole-noreserve.wasm"), join(pageDir, "pinhole-noreserve.wasm"));

const result = { date: new Date().toISOString(), quick, loadAverageAtStart: loadavg(), observe: /** @type {any[]} */ ([]) };
/**
 * wasmCodeCacheEntries counts the entries in the profile's wasm code cache
 * (Default/Code Cache/wasm, a disk cache: its index files aside).
 * @param {string} profile
 */
function wasmCodeCacheEntries(profile) {
  const dir = join(profile, "Default", "Code Cache", "wasm");
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== "index" && e.name !== "the-real-index").length;
}

const server = await startServer({ dist: pageDir });
let browser;
try {
  browser = await chromium.launch(launchOptions());
  result.chromium = browser.version();
  /** @param {(pg: import("playwright-core").Page) => Promise<any>} fn */
  const fresh = (fn) => inFreshPage(browser, server.url, fn, 900000);
  /** @type {Record<string, any[]>} */
  const samples = {};
  for (let r = 0; r < RUNS; r++) {
    for (const n of SIZES) {
      for (const [name, url] of [["reserve", "/pinhole.wasm"], ["noreserve", "/pinhole-noreserve.wasm"]]) {
        const out = await fresh((pg) => pg.evaluate(([u, k]) => /** @type {any} */ (window).flat.coldObserve(u, k), /** @type {[string, number]} */ ([url, n])));
        (samples[`${name} ${n}`] ??= []).push(out);
        log(`${name} ${n}: ${JSON.stringify(out)}`);
      }
    }
  }
  for (const [key, xs] of Object.entries(samples)) {
    const [module, n] = key.split(" ");
    const ms = summarize(xs.map((x) => x.observeMs));
    result.observe.push({ module, orders: Number(n), requestBytes: xs[0].requestBytes, observeMs: ms, msPerMB: ms.median / (xs[0].requestBytes / 1e6), memoryBytes: xs[0].memory });
  }
  await browser.close();
  browser = undefined;

  log("first and repeat visits");
  /**
   * visits opens the page on a fresh persistent profile VISITS times and
   * times compileStreaming(fetch("/pinhole.wasm", {cache})) on each: in new
   * pages of one browser (sameBrowser), or with the browser closed and
   * started again on the same profile before each visit (a later session:
   * only what Chromium keeps on disk carries over).
   * @param {RequestCache} cache @param {boolean} sameBrowser
   */
  const visits = async (cache, sameBrowser) => {
    const dir = mkdtempSync(join(tmpdir(), "pinhole-flat-profile-"));
    /** @type {number[]} */
    const times = [];
    /** @type {import("playwright-core").BrowserContext | undefined} */
    let ctx;
    let codeCacheEntries = 0;
    try {
      for (let v = 0; v < VISITS; v++) {
        if (!ctx) ctx = await chromium.launchPersistentContext(dir, launchOptions());
        const pg = await ctx.newPage();
        pg.setDefaultTimeout(300000);
        await pg.goto(server.url);
        await pg.waitForSelector("html[data-ready=true]");
        times.push(await pg.evaluate((c) => /** @type {any} */ (window).flat.compile("/pinhole.wasm", c), cache));
        await new Promise((r) => setTimeout(r, 4000)); // time for Chromium to write its caches
        await pg.close();
        if (!sameBrowser) {
          await ctx.close();
          ctx = undefined;
        }
      }
      await ctx?.close();
      ctx = undefined;
      codeCacheEntries = wasmCodeCacheEntries(dir);
    } finally {
      await ctx?.close();
      rmSync(dir, { recursive: true, force: true });
    }
    log(`visits, cache ${cache}, ${sameBrowser ? "same browser" : "browser restarted"}: ${times.map((t) => t.toFixed(1)).join(", ")} ms`);
    return { first: times[0], repeat: summarize(times.slice(1)), all: times, codeCacheEntries };
  };
  result.visits = {
    restarted: await visits("default", false), restartedNoStore: await visits("no-store", false),
    sameBrowser: await visits("default", true), sameBrowserNoStore: await visits("no-store", true),
  };
} finally {
  await browser?.close();
  await server.close();
}
result.loadAverageAtEnd = loadavg();
writeFileSync(join(outDir, "bench-flat-chromium.json"), JSON.stringify(result, null, 2) + "\n");
log("wrote build/bench-flat-chromium.json");
