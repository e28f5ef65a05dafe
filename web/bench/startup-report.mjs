// The start-up floor section of BENCHMARKS.md, from build/bench-startup.json
// (web/bench/startup.mjs, `make bench-startup`). report.mjs includes it.
import { join } from "node:path";
import { SETTLE_MS } from "./coldstart.mjs";
import { readJSON } from "./measure.mjs";

/** GOAL is issue 14's aim: pinhole.wasm's cold start within this factor of an empty Go reactor's. */
export const GOAL = 1.6;

/**
 * readStartup returns the parsed build/bench-startup.json, or null.
 * @param {string} build the build directory
 */
export function readStartup(build) {
  return readJSON(join(build, "bench-startup.json"));
}

/**
 * judge says whether one runtime's rounds meet the goal. With an interval
 * (startup.mjs gives one since 2026-12-02) the goal is met only when the
 * whole interval is within it and missed only when the whole interval is
 * beyond it; in between, this run's rounds cannot tell, and the report says
 * so instead of reading the ratio's side of the line as a verdict.
 * @param {{ratio: number, ratioInterval?: {lo: number, hi: number}}} x
 */
export function judge(x) {
  const ci = x.ratioInterval;
  if (!ci) return x.ratio <= GOAL ? "**met**" : "**not met**";
  if (ci.hi <= GOAL) return "**met**";
  if (ci.lo > GOAL) return "**not met**";
  return `**not shown** (${GOAL}× is inside the interval)`;
}

/** interval writes a runtime's interval, or nothing for a run without one. @param {any} x */
const interval = (x) => (x.ratioInterval ? `, ${Math.round(x.ratioInterval.level * 100)}% interval ${x.ratioInterval.lo.toFixed(2)}–${x.ratioInterval.hi.toFixed(2)}` : "");

/**
 * startupGoalRows gives the goals table its rows: one per runtime measured.
 * @param {string} build
 * @returns {string[][]}
 */
export function startupGoalRows(build) {
  const r = readStartup(build);
  if (!r) return [];
  return ["node", "chromium"].filter((k) => r[k]).map((k) => [
    `Cold start (compile + instantiate + \`_initialize\` + load of the orders manifest) within ${GOAL}× an empty Go wasip1 reactor's, ${k === "node" ? "Node" : "Chromium"}`,
    `${r[k].pinhole.total.median} ÷ ${r[k].empty.total.median} ms = ${r[k].ratio.toFixed(2)}×${interval(r[k])}`,
    judge(r[k]),
  ]);
}

/**
 * goName writes a function name from Go's wasm name section the way Go
 * writes it: the linker spells "(*T)" as "__T_".
 * @param {string} n
 */
const goName = (n) => n.replace(/\.__(\w+?)_\./g, ".(*$1).");

/**
 * startupSection renders both modules' phases per runtime and the ratio.
 * @param {string} build the build directory
 */
export function startupFloorSection(build) {
  const title = "### Start-up against an empty Go reactor";
  const r = readStartup(build);
  if (!r) return `${title}\n\nnot run (\`make bench-startup\` writes build/bench-startup.json).\n`;
  const f = (/** @type {any} */ s) => (s ? `${s.median} (${s.p10}–${s.p90})` : "–");
  const lines = [
    "| runtime, module | compile | instantiate | `_initialize` | load of the orders manifest | total |",
    "| --- | --- | --- | --- | --- | --- |",
  ];
  const verdicts = [];
  let settled = "";
  for (const [k, name] of [["node", "Node " + r.machine.node], ["chromium", "Chromium " + (r.machine.chromium ?? "")]]) {
    const x = r[k];
    if (!x) continue;
    for (const [m, label] of [["pinhole", "pinhole.wasm"], ["empty", "empty reactor"], ["baseline", "baseline (`--baseline`)"],
      ["settled", "pinhole.wasm, load on a settled CPU (below)"],
      ["pinhole-liftoff", "pinhole.wasm, `--liftoff-only` (below)"], ["empty-liftoff", "empty reactor, `--liftoff-only`"]]) {
      const s = x[m];
      if (!s) continue;
      lines.push(`| ${name}, ${label} | ${f(s.compile)} | ${f(s.instantiate)} | ${f(s.initialize)} | ${m.startsWith("empty") ? "–" : f(s.load)} | **${f(s.total)}** |`);
    }
    if (x.pairedVsBaseline) verdicts.push(`${name.split(" ")[0]}: pinhole.wasm ÷ the baseline, per round ${x.pairedVsBaseline.median.toFixed(3)}× (p10–p90 ${x.pairedVsBaseline.p10.toFixed(2)}–${x.pairedVsBaseline.p90.toFixed(2)})`);
    verdicts.push(`${name.split(" ")[0]}: ${x.ratio.toFixed(2)}× (ratio of the medians${interval(x)}; per round ${x.pairedRatio.median.toFixed(2)}×, p10–p90 ${x.pairedRatio.p10.toFixed(2)}–${x.pairedRatio.p90.toFixed(2)}), goal ${GOAL}× ${judge(x)}`);
    if (x.settled) settled = `
**A settled CPU** (Node): the "load on a settled CPU" row is pinhole.wasm
again, in the same rounds, with its load started ${SETTLE_MS} ms after
\`_initialize\` returned (the pause is not timed). The Go runtime's own start
uses up the tier-up budget of a few runtime functions (\`moduledataverify1\`,
\`runGCProg\`, \`pcvalue\`, in the empty reactor too), and V8 recompiles them on background
threads for tens of milliseconds of CPU. The empty reactor's clock stops
before that work runs; pinhole.wasm's load runs while it does, sharing this
machine's ${r.machine.cpus} cores with it. Started on a settled CPU, the load takes
${x.settled.load.median} ms instead of ${x.pinhole.load.median} ms, and the whole start is ${x.settledRatio.toFixed(2)}× the empty
reactor's. It is not the goal's figure (a page cannot wait for V8), but it
says what the rest of the gap is made of: compiling the functions the load
runs, and the load's share of a CPU that the runtime's start keeps busy.
`;
    if (x.liftoffRatio) settled += `
**V8's optimising tier kept out** (Node): the \`--liftoff-only\` rows start
both modules again, in the same rounds, in Node processes run with that
flag, so that V8 compiles every function with Liftoff only and never
recompiles one with TurboFan. pinhole.wasm then starts in
${x["pinhole-liftoff"].total.median} ms against the empty reactor's ${x["empty-liftoff"].total.median} ms: ${x.liftoffRatio.toFixed(2)}×, against ${x.ratio.toFixed(2)}× with
the recompiles. A page cannot set the flag; the difference says how much
of the gap is V8's background recompiles (the TurboFan functions listed
above) sharing the CPU with the start.
`;
  }
  const moduleLabel = (/** @type {string} */ m) => (m === "empty" ? "empty reactor" : m === "pinhole" ? "pinhole.wasm" : "baseline");
  const c = r.compiled;
  const compiled = c ? `
What V8 compiled during one cold start in Node (\`--trace-wasm-compilation-times\`,
median of ${r.node?.rounds && c ? "5" : "–"} processes): functions compiled by Liftoff on their first
call, and functions recompiled by TurboFan in the background because their
tier-up budget ran out during the start.

| module | Liftoff: functions | Liftoff: wasm bytes | TurboFan: functions | recompiled by TurboFan (in at least half of the runs) |
| --- | --- | --- | --- | --- |
${Object.entries(c).map(([m, x]) => `| ${moduleLabel(m)} | ${x.liftoff} | ${x.liftoffBytes.toLocaleString("en")} | ${x.turbofan} | ${x.turbofanNames ? x.turbofanNames.map((n) => "`" + goName(n) + "`").join(", ") : "–"} |`).join("\n")}

Go compiles a function to WebAssembly as one loop around a jump table: a
jump between its blocks is a branch back to the top of that loop. Liftoff
charges every such branch to the function's tier-up budget by the length of
compiled code it jumps back over, so a large Go function uses its budget
up after a few hundred branches, however few calls it serves. The Go
runtime's allocator is where a start meets this: V8 spends tens of
thousands of a function's budget on each call of
\`mallocgcSmallScanNoHeader\`, \`(*mcentral).cacheSpan\` or
\`(*mheap).allocSpan\`, so a few dozen allocations, or a few dozen size
classes used for the first time, recompile them (BENCHMARKS.md, "Twelve
pointerful allocations at the load").
` : "";
  const cc = r.chromiumCompiled;
  const chromiumCompiled = cc ? `
What V8 compiled on the page's thread during one cold start in Chromium,
from the browser's own trace (\`wasm.CompileLazy\` events, category
\`v8.wasm\`; median of ${r.chromiumTracePages ?? "–"} pages, traced apart from the timed rounds, as
tracing slows the start). V8 compiles a function on its first call, on the
thread that calls it, and each such compile pays for installing its code
as well as for Liftoff's work.

| module | phase | functions compiled on first call | ms on the page's thread |
| --- | --- | --- | --- |
${Object.entries(cc).flatMap(([m, x]) => ["initialize", "load", "total"].filter((p) => x[p] && (p !== "load" || x.load.functions > 0))
    .map((p) => `| ${moduleLabel(m)} | ${p === "total" ? "the whole start" : `\`${p === "initialize" ? "_initialize" : "load"}\``} | ${x[p].functions} | ${x[p].ms} |`)).join("\n")}
` : "";
  const n = r.instructions;
  const M = (/** @type {number} */ x) => (x / 1e6).toFixed(1);
  const instructions = n ? `
Instructions one cold start executes, counted by valgrind's callgrind in
Node with \`--single-threaded\` (V8's background compilations then run on the
main thread and are counted), Node's own start (${M(n.node)} M) subtracted.
The count hardly moves between runs, whatever the machine's load, so it
judges a change to the start-up in one run where the times above need
dozens of rounds; it weighs every instruction alike, cache misses and page
faults not at all, so it is a guide, not the goal.

| module | million instructions | ÷ empty reactor |
| --- | --- | --- |
${[["empty", "empty reactor"], ["init", "pinhole.wasm, up to \`_initialize\`"], ["pinhole", "pinhole.wasm, with the load"], ["baseline", "baseline"]]
    .filter(([k]) => n[k] !== undefined).map(([k, label]) => `| ${label} | ${M(n[k])} | ${(n[k] / n.empty).toFixed(2)}× |`).join("\n")}
${[["empty-liftoff", "empty reactor, \`--liftoff-only\`"], ["pinhole-liftoff", "pinhole.wasm with the load, \`--liftoff-only\`"]]
    .filter(([k]) => n[k] !== undefined).map(([k, label]) => `| ${label} | ${M(n[k])} | ${(n[k] / n["empty-liftoff"]).toFixed(2)}× |`).join("\n")}
` : `
Instructions: not counted (no valgrind on this machine).
`;
  return `${title}

${lines.join("\n")}
${compiled}${chromiumCompiled}${instructions}
Milliseconds, median (p10–p90). Each round starts pinhole.wasm and an empty
Go wasip1 reactor (web/bench/emptyreactor, built with the module's flags),
in alternating order, each in a fresh Node process (${r.node?.rounds ?? "–"} rounds) or a
fresh Chromium browser context (${r.chromium?.rounds ?? "–"} rounds), from bytes in memory
(made unique in Chromium, before the clock starts, so nothing is cached); written ${r.written.replace("T", " ").replace(/\.\d+Z$/, " UTC")},
${r.machine.cpus} cores (${r.machine.model}), load average ${r.loadAverageAtStart.join(" ")} at the start.${r.baseline ? `
The baseline rows are another build of the module, ${r.baseline.split("/").pop()}, started in the same rounds.` : ""}${r.node?.ratioInterval || r.chromium?.ratioInterval ? `
The interval is a bootstrap over the rounds (4,000 draws of as many rounds,
with replacement, from a fixed seed): the ratio of the medians each draw
gives, the middle 90% of them. A round's ratio spreads widely on this
machine, so one run's ratio of the medians can land on either side of the
goal; the goal counts as met only when the whole interval is within it, as
missed only when the whole interval is beyond it.` : ""}

${verdicts.map((v) => "- " + v).join("\n")}
${settled}`;
}
