// Runs the task benchmark (tasks.mjs): every task with both agents, each
// in a fresh browser context of the demo page in headless Chromium, and
// writes build/bench-tasks.json; tasks-report.mjs turns it into the table
// at the top of BENCHMARKS.md and README.md.
//
//   node web/bench/tasks-run.mjs [--only name,name]   (after make wasm web-build)
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { launchOptions } from "../chromium.mjs";
import { startServer } from "../serve.mjs";
import { TOKENIZER } from "./measure.mjs";
import { runTask, TASKS } from "./tasks.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(resolve(here, "../.."), "build");
const at = process.argv.indexOf("--only");
const only = at > 0 ? process.argv[at + 1].split(",") : null;
const tasks = only ? TASKS.filter((t) => only.includes(t.name)) : TASKS;
if (!tasks.length) throw new Error(`no task named ${only}`);

const started = Date.now();
const log = (m) => process.stderr.write(`[tasks ${Math.round((Date.now() - started) / 1000)} s] ${m}\n`);
const server = await startServer();
const browser = await chromium.launch(launchOptions());
const results = [];
try {
  for (const task of tasks) {
    for (const agent of /** @type {const} */ (["dom", "pinhole"])) {
      const r = await runTask(browser, server.url, task, agent);
      results.push(r);
      log(`${task.name} ${agent}: ${r.success ? "ok" : "FAILED (" + r.failure + ")"}, ${r.tokens} tokens, ${r.steps} steps, ${r.sensitive} sensitive`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
const out = {
  date: new Date().toISOString(), loadAverageAtStart: loadavg(), tokenizer: TOKENIZER, chromium: browser.version(),
  seconds: Math.round((Date.now() - started) / 1000), partial: !!only,
  tasks: tasks.map((t) => ({ name: t.name, ask: t.ask, orders: t.orders, how: t.how })), results,
};
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "bench-tasks.json"), JSON.stringify(out, null, 1) + "\n");
log("wrote build/bench-tasks.json");
