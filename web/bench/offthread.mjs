// Main-thread blocking in Chromium, module in-thread against worker-hosted
// (make bench-offthread). For each host, fresh pages each measure, with the
// Long Tasks API: createPinhole to the first describe, and a 10,000-order
// cold sync (the store switched, the full observe, a describe). Also the
// demo's own 10,000-order switch (web/dist, the bridge's default host),
// which includes the app generating and rendering the orders.
// Writes build/bench-offthread.json; web/bench/report.mjs puts it in
// BENCHMARKS.md. BENCH_QUICK=1 (or --quick) runs two pages per host.
import * as esbuild from "esbuild";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { launchOptions } from "../chromium.mjs";
import { summarize } from "./measure.mjs";
import { startServer } from "../serve.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const out = join(repo, "build", "bench-offthread");
const quick = process.argv.includes("--quick") || !!process.env.BENCH_QUICK;
const RUNS = quick ? 2 : 7;

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await esbuild.build({
  entryPoints: { page: join(here, "offthread-page.mjs"), worker: join(repo, "js/src/worker.js") },
  bundle: true, format: "esm", platform: "browser", target: "chrome120", outdir: out, logLevel: "warning",
  external: ["node:*"], define: { "process.argv": "[]" },
});
writeFileSync(join(out, "index.html"), '<!doctype html><meta charset="utf-8"><title>off-thread bench</title><script type="module" src="/page.js"></script>\n');

const summarise = (rows) => Object.fromEntries(["wallMs", "longTasks", "longTaskMs", "blockingMs", "longestMs"].map((k) => [k, {
  median: +summarize(rows.map((r) => r[k])).median.toFixed(1), min: +Math.min(...rows.map((r) => r[k])).toFixed(1), max: +Math.max(...rows.map((r) => r[k])).toFixed(1),
}]));

const bench = await startServer({ dist: out });
const demo = await startServer();
const browser = await chromium.launch(launchOptions());
const result = { machine: { cpus: cpus().length, model: cpus()[0]?.model, memGB: +(totalmem() / 2 ** 30).toFixed(1), chromium: browser.version() },
  written: new Date().toISOString(), runs: RUNS, hosts: {}, demo: null };
try {
  for (const host of ["main", "worker"]) {
    const start = [], cold = [];
    for (let r = 0; r < RUNS; r++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${bench.url}?host=${host}`);
      await page.waitForSelector("html[data-ready=true]");
      const s = await page.evaluate(() => window.offthread.start());
      if (s.host !== host || s.records !== 48) throw new Error(`start: ${JSON.stringify(s)}`);
      const c = await page.evaluate(() => window.offthread.coldSync(10000));
      if (c.records !== 10000) throw new Error(`cold sync: ${JSON.stringify(c)}`);
      start.push(s);
      cold.push(c);
      await context.close();
    }
    result.hosts[host] = { start: summarise(start), coldSync10k: summarise(cold) };
    console.log(host, JSON.stringify(result.hosts[host]));
  }
  // The demo's 10,000-order switch, default host: from the click to the new context.
  const rows = [];
  for (let r = 0; r < RUNS; r++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(demo.url);
    await page.waitForSelector("html[data-ready=true]");
    rows.push(await page.evaluate(async () => {
      const tasks = [];
      new PerformanceObserver((l) => tasks.push(...l.getEntries())).observe({ type: "longtask" });
      await new Promise((ok) => setTimeout(ok, 200));
      const t0 = performance.now();
      document.querySelector("#big").click();
      // The demo paints its busy indicator first and loads the orders after
      // a frame; it clears data-busy once the store holds them.
      while (document.documentElement.dataset.busy) await new Promise((ok) => setTimeout(ok, 5));
      await demo.pinhole.flush();
      const d = await demo.pinhole.describe();
      const t1 = performance.now();
      await new Promise((ok) => setTimeout(ok, 200));
      if (d.context.recordsTotal !== 10000) throw new Error("the switch did not reach the module");
      const ins = tasks.filter((e) => e.startTime >= t0 - 1 && e.startTime <= t1);
      return { host: demo.pinhole.host, wallMs: t1 - t0, longTasks: ins.length, longTaskMs: ins.reduce((s, e) => s + e.duration, 0),
        blockingMs: ins.reduce((s, e) => s + Math.max(0, e.duration - 50), 0), longestMs: ins.reduce((m, e) => Math.max(m, e.duration), 0) };
    }));
    await context.close();
  }
  result.demo = { host: rows[0].host, switch10k: summarise(rows) };
  console.log("demo", JSON.stringify(result.demo));
} finally {
  await browser.close();
  await bench.close();
  await demo.close();
}
writeFileSync(join(repo, "build", "bench-offthread.json"), JSON.stringify(result, null, 2) + "\n");
console.log("wrote build/bench-offthread.json");
