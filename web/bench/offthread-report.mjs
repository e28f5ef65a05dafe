// The off-thread section of BENCHMARKS.md, from build/bench-offthread.json
// (web/bench/offthread.mjs, `make bench-offthread`). report.mjs includes it.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { readJSON } from "./measure.mjs";

const AIM_MS = 50;

/** readOffthread returns the parsed build/bench-offthread.json, or null. @param {string} build */
const readOffthread = (build) => readJSON(join(build, "bench-offthread.json"));

/**
 * blockingTotal is a host's median blocking (or long-task) time from
 * createPinhole to the first describe plus that of the 10,000-order cold
 * sync; NaN when the host was not measured.
 * @param {any} r the parsed bench-offthread.json
 * @param {string} host "main" or "worker"
 * @param {"blockingMs" | "longTaskMs"} k
 */
const blockingTotal = (r, host, k) =>
  r.hosts?.[host] ? +(r.hosts[host].start[k].median + r.hosts[host].coldSync10k[k].median).toFixed(1) : NaN;

/**
 * offthreadGoalRows gives the goals table its row for issue 14's first
 * aim: under 50 ms of main-thread blocking in Chromium for start-up and a
 * 10,000-order cold sync together, with the module in a worker (the
 * default in pages).
 * @param {string} build
 * @returns {string[][]}
 */
export function offthreadGoalRows(build) {
  const r = readOffthread(build);
  if (!r) return [];
  const wb = blockingTotal(r, "worker", "blockingMs");
  return [[`Main-thread blocking under ${AIM_MS} ms in Chromium, \`createPinhole\` → first describe and a 10,000-order cold sync together`,
    `module in a worker (the default): ${wb} ms; on the page's thread: ${blockingTotal(r, "main", "blockingMs")} ms`,
    wb < AIM_MS ? "**met**" : "**not met**"]];
}

/**
 * offthreadSection renders the long-task figures: per host, createPinhole to
 * the first describe and a 10,000-order cold sync; the demo's switch.
 * @param {string} build the build directory
 */
export function offthreadSection(build) {
  const file = join(build, "bench-offthread.json");
  const title = "### Main-thread blocking in Chromium: the module in-thread or in a worker";
  if (!existsSync(file)) return `${title}\n\nnot run (\`make bench-offthread\` writes build/bench-offthread.json).\n`;
  const r = readOffthread(build);
  if (!r) return `${title}\n\nnot run (build/bench-offthread.json is not JSON).\n`;
  const f = (/** @type {any} */ s) => `${s.median} (${s.min}–${s.max})`;
  const row = (/** @type {string} */ what, /** @type {any} */ x) =>
    `| ${what} | ${f(x.wallMs)} | ${f(x.longTasks)} | ${f(x.longTaskMs)} | ${f(x.blockingMs)} |`;
  const lines = [
    "| host, moment | wall ms | long tasks | long-task ms | blocking ms (each task's time over 50 ms) |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const host of ["main", "worker"]) {
    const h = r.hosts?.[host];
    if (!h) continue;
    lines.push(row(`${host}: createPinhole → first describe`, h.start));
    lines.push(row(`${host}: 10,000-order cold sync → describe`, h.coldSync10k));
  }
  if (r.demo) lines.push(row(`the demo (${r.demo.host}): 10,000-order switch, click → describe: one task holds the app generating and rendering the orders and the bridge reading the slice`, r.demo.switch10k));
  const total = (/** @type {string} */ host, /** @type {"blockingMs" | "longTaskMs"} */ k) => blockingTotal(r, host, k);
  const wb = total("worker", "blockingMs");
  const mb = total("main", "blockingMs");
  const when = statSync(file).mtime.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
  return `${title}

From build/bench-offthread.json (\`make bench-offthread\`, web/bench/offthread.mjs, written ${when};
${r.machine.cpus} cores, ${r.machine.model}, ${r.machine.memGB} GB, Chromium ${r.machine.chromium}, shared with other jobs).
Median (range) over ${r.runs} fresh pages per host. The Long Tasks API reports
every main-thread task of 50 ms or more; "blocking" is what such tasks
spend beyond 50 ms (Total Blocking Time). The cold sync starts when the
store switches to 10,000 orders already generated, and ends when a describe
answers.

${lines.join("\n")}

Goal (under ${AIM_MS} ms of blocking for start-up and the cold sync together):
worker-hosted ${wb} ms, in-thread ${mb} ms — ${wb < AIM_MS ? "**met** by the worker, the default in pages" : "**not met**"}.
Long-task time, start-up and cold sync together: worker ${total("worker", "longTaskMs")} ms,
in-thread ${total("main", "longTaskMs")} ms. What stays on the main thread in a
worker-hosted cold sync is the bridge's own work, in three tasks: reading the
declared slice, serialising it (JSON), and encoding it (UTF-8, transferred
to the worker). The bridge ends its task between them; by the timings in
"Where a cold full sync spends its time" (Latency), the long task left is
the first: one walk of the store's orders.
`;
}
