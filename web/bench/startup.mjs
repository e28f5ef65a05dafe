// pinhole.wasm's cold start against an empty Go wasip1 reactor's
// (web/bench/emptyreactor, built with the same flags), measured in the same
// run and interleaved: each round starts one of each, in alternating order,
// in a fresh Node process and in a fresh Chromium browser context. Phases:
// compile (from bytes in memory), instantiate, _initialize, and for
// pinhole.wasm the load of the orders manifest. Writes
// build/bench-startup.json; web/bench/report.mjs puts it in BENCHMARKS.md.
// BENCH_QUICK=1 (or --quick) runs three rounds. --baseline FILE adds
// another build of pinhole.wasm to every round (a before/after comparison
// in the same run).
import * as esbuild from "esbuild";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { inFreshPage, launchOptions } from "../chromium.mjs";
import { lazyCompiles } from "./chromiumtrace.mjs";
import { ratioInterval, summarize } from "./measure.mjs";
import { functionNames } from "./wasmnames.mjs";
import { startServer } from "../serve.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const out = join(repo, "build", "bench-startup");
const quick = process.argv.includes("--quick") || !!process.env.BENCH_QUICK;
// 81 rounds in Node, 161 in Chromium: a round's ratio spreads widely on a
// busy 2-core machine (p10–p90 1.28–2.04 in Node, 1.01–2.46 in Chromium in
// one run of 41 rounds), and with 41 rounds the ratio of the medians moved
// between 1.52 and 1.67 in Node and 1.42 and 1.76 in Chromium across runs
// of the same code. Chromium's rounds spread the most (a fresh browser
// context's own start-up shares the two cores with the sample), and with 81
// of them its interval was still about ±0.14 wide. The report gives each
// ratio's interval (measure.mjs, ratioInterval) and judges the goal from it.
const NODE_ROUNDS = quick ? 3 : 81;
const PAGE_ROUNDS = quick ? 3 : 161;
const bi = process.argv.indexOf("--baseline");
const BASELINE = bi > 0 ? resolve(process.argv[bi + 1]) : null;
const MODULES = BASELINE ? ["pinhole", "empty", "baseline"] : ["pinhole", "empty"];
// In Node, every round also starts pinhole.wasm with its load delayed until
// V8's background recompiles of the Go runtime's start are done
// (startup-node.mjs settled): what the load costs on a CPU of its own. And
// both modules again with V8's optimising tier kept out (--liftoff-only):
// no background recompiles at all, so the ratio says what they cost.
const NODE_MODULES = [...MODULES, "settled", "pinhole-liftoff", "empty-liftoff"];
const LIFTOFF = "-liftoff";

/**
 * nodeArgs is the command line of one sample: startup-node.mjs and its mode,
 * behind --liftoff-only for a "-liftoff" variant.
 * @param {string} which
 * @param {string[]} [flags] more Node flags
 */
const nodeArgs = (which, flags = []) => {
  const mode = which.endsWith(LIFTOFF) ? which.slice(0, -LIFTOFF.length) : which;
  return [...(which.endsWith(LIFTOFF) ? ["--liftoff-only"] : []), ...flags, join(here, "startup-node.mjs"), mode,
    ...(mode === "baseline" ? [BASELINE] : [])];
};
const PHASES = ["compile", "instantiate", "initialize", "load", "total"];

/** stat summarises samples, in hundredths. @param {number[]} xs */
const stat = (xs) => {
  const s = summarize(xs);
  return { median: +s.median.toFixed(2), p10: +s.p10.toFixed(2), p90: +s.p90.toFixed(2), n: s.n };
};

/**
 * runRounds calls sample(which) for every module in every round, in
 * turn-about order (forwards in even rounds, backwards in odd ones).
 * @param {number} rounds
 * @param {string[]} modules
 * @param {(which: string) => Promise<Record<string, number>>} sample
 */
async function runRounds(rounds, modules, sample) {
  /** @type {Record<string, Record<string, number>[]>} */
  const rows = Object.fromEntries(modules.map((m) => [m, []]));
  for (let r = 0; r < rounds; r++) {
    for (const which of r % 2 ? [...modules].reverse() : modules) rows[which].push(await sample(which));
  }
  const keys = Object.keys(rows.pinhole[0]);
  const sum = (which) => Object.fromEntries(keys.map((k) => [k, stat(rows[which].map((x) => x[k]))]));
  /** @type {any} */
  const res = { rounds, ...Object.fromEntries(modules.map((m) => [m, sum(m)])) };
  // The ratio of the medians (the goal) and the median of the per-round ratios.
  res.ratio = +(res.pinhole.total.median / res.empty.total.median).toFixed(3);
  // How far this run's rounds pin the ratio down: the report judges the
  // goal from this interval, not from the ratio alone.
  const ci = ratioInterval(rows.pinhole.map((x) => x.total), rows.empty.map((x) => x.total));
  res.ratioInterval = { lo: +ci.lo.toFixed(3), hi: +ci.hi.toFixed(3), level: ci.level };
  res.pairedRatio = stat(rows.pinhole.map((p, i) => p.total / rows.empty[i].total));
  if (BASELINE) res.pairedVsBaseline = stat(rows.pinhole.map((p, i) => p.total / rows.baseline[i].total));
  if (rows.settled) res.settledRatio = +(res.settled.total.median / res.empty.total.median).toFixed(3);
  if (rows[`pinhole${LIFTOFF}`]) res.liftoffRatio = +(res[`pinhole${LIFTOFF}`].total.median / res[`empty${LIFTOFF}`].total.median).toFixed(3);
  return res;
}

const result = {
  baseline: BASELINE,
  machine: { cpus: cpus().length, model: cpus()[0]?.model, memGB: +(totalmem() / 2 ** 30).toFixed(1), node: process.version },
  written: new Date().toISOString(), loadAverageAtStart: loadavg().map((x) => +x.toFixed(2)), phases: PHASES,
};

console.log(`Node: ${NODE_ROUNDS} rounds, one fresh process per sample`);
result.node = await runRounds(NODE_ROUNDS, NODE_MODULES, async (which) =>
  JSON.parse(execFileSync(process.execPath, nodeArgs(which), { encoding: "utf8" })));
console.log("node", JSON.stringify({ ratio: result.node.ratio, settledRatio: result.node.settledRatio, liftoffRatio: result.node.liftoffRatio,
  pinhole: result.node.pinhole.total, empty: result.node.empty.total }));

// What V8 compiled during a cold start in Node, from its own trace
// (--trace-wasm-compilation-times): functions compiled by Liftoff on first
// call (count and wasm bytes) and functions recompiled by TurboFan because
// they used up their tier-up budget. Median of TRACE_RUNS processes each.
// The recompiled functions are named from the same module built with its
// names kept (build/*-named.wasm), when its code is the same.
const TRACE_RUNS = quick ? 1 : 5;
const NAMED = { pinhole: ["pinhole.wasm", "pinhole-named.wasm"], empty: ["empty-reactor.wasm", "empty-reactor-named.wasm"] };
result.compiled = {};
for (const which of MODULES) {
  const [file, named] = NAMED[which] ?? [];
  const names = file ? functionNames(readFileSync(join(repo, "build", file)), readFileSync(join(repo, "build", named))) : null;
  const runs = [];
  /** @type {Record<string, number>} */
  const optimised = {};
  for (let i = 0; i < TRACE_RUNS; i++) {
    const txt = execFileSync(process.execPath, nodeArgs(which, ["--trace-wasm-compilation-times"]).concat("--settle"), { encoding: "utf8" });
    const run = { liftoff: 0, liftoffBytes: 0, turbofan: 0 };
    for (const line of txt.split("\n")) {
      const m = line.match(/#(\d+) using (Liftoff|TurboFan).*bodysize (\d+)/);
      if (m?.[2] === "TurboFan") {
        run.turbofan++;
        const name = names?.get(+m[1]);
        if (name) optimised[name] = (optimised[name] ?? 0) + 1;
      } else if (m) (run.liftoff++, (run.liftoffBytes += +m[3]));
    }
    runs.push(run);
  }
  result.compiled[which] = Object.fromEntries(Object.keys(runs[0]).map((k) => [k, summarize(runs.map((r) => r[k])).median]));
  // A function named here was recompiled in at least half of the runs.
  if (names) result.compiled[which].turbofanNames = Object.keys(optimised).filter((n) => optimised[n] * 2 >= TRACE_RUNS).sort();
}
console.log("compiled", JSON.stringify(result.compiled));

// Instructions one cold start executes, counted by valgrind's callgrind in
// Node with --single-threaded (V8's background compilations then run on the
// main thread, and are counted too). Unlike the times above, the count does
// not move with the machine's load: one run judges a change to the start.
// Node's own start (the same script without a module, "none") is
// subtracted; "init" is pinhole.wasm without the load. Skipped, and said
// so, without valgrind.
const INSTRUCTION_RUNS = quick ? 1 : 2;
const hasValgrind = (() => { try { execFileSync("valgrind", ["--version"], { stdio: "ignore" }); return true; } catch { return false; } })();
if (hasValgrind) {
  /** @param {string} which */
  const count = (which) => {
    const runs = [];
    for (let i = 0; i < INSTRUCTION_RUNS; i++) {
      const args = ["--tool=callgrind", "--callgrind-out-file=/dev/null", process.execPath, ...nodeArgs(which, ["--single-threaded"])];
      const { stderr, status } = spawnSync("valgrind", args, { encoding: "utf8" });
      const m = stderr.match(/Collected : (\d+)/);
      if (status !== 0 || !m) throw new Error(`callgrind of ${which} failed:\n${stderr.slice(-2000)}`);
      runs.push(+m[1]);
    }
    return Math.min(...runs);
  };
  // The "-liftoff" counts: V8's optimising tier kept out, Node's own start
  // under the same flag subtracted.
  const liftoff = ["pinhole", "empty"].map((w) => w + LIFTOFF);
  const raw = Object.fromEntries(["none", "init", ...MODULES, "none" + LIFTOFF, ...liftoff].map((w) => [w, count(w)]));
  result.instructions = Object.fromEntries(["init", ...MODULES].map((w) => [w, raw[w] - raw.none]));
  for (const w of liftoff) result.instructions[w] = raw[w] - raw["none" + LIFTOFF];
  result.instructions.node = raw.none;
  console.log("instructions", JSON.stringify(result.instructions));
} else {
  console.log("instructions: not counted (no valgrind)");
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await esbuild.build({
  entryPoints: { page: join(here, "startup-page.mjs") }, bundle: true, format: "esm", platform: "browser", target: "chrome120",
  outdir: out, logLevel: "warning", external: ["node:*"], define: { "process.argv": "[]" },
});
writeFileSync(join(out, "index.html"), '<!doctype html><meta charset="utf-8"><title>start-up bench</title><script type="module" src="/page.js"></script>\n');
copyFileSync(join(repo, "build", "empty-reactor.wasm"), join(out, "empty-reactor.wasm"));
if (BASELINE) copyFileSync(BASELINE, join(out, "baseline.wasm"));

const server = await startServer({ dist: out });
const browser = await chromium.launch(launchOptions());
try {
  result.machine.chromium = browser.version();
  console.log(`Chromium: ${PAGE_ROUNDS} rounds, one fresh browser context per sample`);
  result.chromium = await runRounds(PAGE_ROUNDS, MODULES, (which) =>
    inFreshPage(browser, server.url, (page) => page.evaluate((w) => window.startup.run(w), which)));
  console.log("chromium", JSON.stringify({ ratio: result.chromium.ratio, pinhole: result.chromium.pinhole.total, empty: result.chromium.empty.total }));

  // What V8 compiled on the page's thread during a start in Chromium, from
  // the browser's own trace: functions compiled on their first call, by
  // phase (chromiumtrace.mjs). Pages of their own, after the timed rounds:
  // tracing slows the start. Median of TRACE_PAGES pages each. A trace that
  // fails costs only its table: the timed rounds above are kept.
  const TRACE_PAGES = quick ? 1 : 5;
  try {
    /** @type {Record<string, any>} */
    const compiled = {};
    for (const which of MODULES) {
      const runs = [];
      for (let i = 0; i < TRACE_PAGES; i++) {
        runs.push(await inFreshPage(browser, server.url, async (page) => {
          await browser.startTracing(page, { categories: ["v8.wasm", "devtools.timeline"] });
          await page.evaluate((w) => window.startup.run(w, true), which);
          const compiles = lazyCompiles(JSON.parse((await browser.stopTracing()).toString("utf8")).traceEvents);
          if (!compiles) throw new Error("the trace holds no phase marks");
          return compiles;
        }));
      }
      compiled[which] = Object.fromEntries(Object.keys(runs[0]).map((phase) => [phase, {
        functions: summarize(runs.map((r) => r[phase].functions)).median,
        ms: +summarize(runs.map((r) => r[phase].ms)).median.toFixed(2),
      }]));
    }
    result.chromiumCompiled = compiled;
    result.chromiumTracePages = TRACE_PAGES;
    console.log("chromium compiled", JSON.stringify(compiled));
  } catch (err) {
    console.log(`chromium compiled: not traced (${err instanceof Error ? err.message : err})`);
  }
} finally {
  await browser.close();
  await server.close();
}
result.loadAverageAtEnd = loadavg().map((x) => +x.toFixed(2));
writeFileSync(join(repo, "build", "bench-startup.json"), JSON.stringify(result, null, 1) + "\n");
