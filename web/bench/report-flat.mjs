// The "Flat cost as the store grows" and "Start-up caching" sections of
// BENCHMARKS.md, from build/bench-flat.json (js/bench/flat.mjs),
// build/bench-flat-chromium.json (web/bench/flat.mjs), build/bench-wazero.txt
// and build/bench-cli.txt (make bench-wazero, bench-cli). report.mjs calls
// flatSections; a missing input is "not run".
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const int = (/** @type {number} */ x) => Math.round(x).toLocaleString("en");
/** @param {number} x */
function ms(x) {
  if (typeof x !== "number" || !Number.isFinite(x)) return "–";
  if (x >= 100) return int(x);
  if (x >= 10) return x.toFixed(1);
  return x.toFixed(2);
}
const mb = (/** @type {number} */ b) => `${(b / 1e6).toFixed(1)} MB`;
const ratio = (/** @type {number} */ x) => (Number.isFinite(x) ? x.toFixed(2) + "×" : "–");
const load = (/** @type {number[] | undefined} */ l) => (l ? l.map((x) => x.toFixed(1)).join(", ") : "?");
/** @param {string[]} head @param {string[][]} rows */
const table = (head, rows) => [`| ${head.join(" | ")} |`, `| ${head.map(() => "---").join(" | ")} |`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
const when = (/** @type {string} */ p) => statSync(p).mtime.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
const median = (/** @type {number[]} */ xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * goBench reads `go test -bench` lines of one benchmark: per sub-benchmark,
 * the median of each metric over the runs.
 * @param {string} text @param {string} name
 * @returns {Map<string, Record<string, number> & {runs: number}>}
 */
function goBench(text, name) {
  /** @type {Map<string, Record<string, number[]>>} */
  const subs = new Map();
  for (const line of text.split("\n")) {
    const m = line.match(new RegExp(`^Benchmark${name}/(\\S+?)(?:-\\d+)?\\s+(\\d+)\\s+(.*)$`));
    if (!m) continue;
    const metrics = subs.get(m[1]) ?? {};
    (metrics.ops ??= []).push(Number(m[2]));
    const parts = m[3].trim().split(/\s+/);
    for (let i = 0; i + 1 < parts.length; i += 2) (metrics[parts[i + 1]] ??= []).push(Number(parts[i]));
    subs.set(m[1], metrics);
  }
  return new Map([...subs].map(([k, v]) => [k, Object.assign({ runs: v.ops.length }, Object.fromEntries(Object.entries(v).map(([u, xs]) => [u, median(xs)])))]));
}

/** The goal of issue 14's third aim: at 100,000 orders, at most this times the cost per MB at 10,000. */
const FLAT_GOAL = 1.5;

/**
 * nodeRatios: a module's cost per MB at 100,000 orders ÷ at 10,000 in
 * build/bench-flat.json, in CPU and in wall time; null when a size is
 * missing.
 * @param {any} N the parsed file @param {string} m "reserve" or "noreserve"
 */
function nodeRatios(N, m) {
  const get = (/** @type {number} */ n) => N.rows.find((/** @type {any} */ r) => r.module === m && r.orders === n);
  const a = get(10000), b = get(100000);
  return a && b ? { cpu: b.cpuMsPerMB / a.cpuMsPerMB, wall: b.msPerMB / a.msPerMB } : null;
}

/**
 * chromiumRatio: the same in build/bench-flat-chromium.json (wall time of
 * the module call); NaN when a size is missing.
 * @param {any} C the parsed file @param {string} m
 */
function chromiumRatio(C, m) {
  const get = (/** @type {number} */ n) => C.observe.find((/** @type {any} */ r) => r.module === m && r.orders === n);
  const a = get(10000), b = get(100000);
  return a && b ? b.msPerMB / a.msPerMB : NaN;
}

/**
 * flatGoalRows gives the goals table its rows for the flat cost of a cold
 * observe, the module as shipped, in Node (CPU time) and Chromium.
 * @param {string} build the build/ directory
 * @returns {string[][]}
 */
export function flatGoalRows(build) {
  const rows = [];
  const what = "A cold observe costs per MB at 100,000 orders at most 1.5× what it costs at 10,000";
  const node = join(build, "bench-flat.json");
  const x = existsSync(node) ? nodeRatios(JSON.parse(readFileSync(node, "utf8")), "reserve") : null;
  if (x) rows.push([`${what} (Node, CPU time)`, `${ratio(x.cpu)} (wall time ${ratio(x.wall)})`, x.cpu <= FLAT_GOAL ? "**met**" : "**not met**"]);
  const chr = join(build, "bench-flat-chromium.json");
  const c = existsSync(chr) ? chromiumRatio(JSON.parse(readFileSync(chr, "utf8")), "reserve") : NaN;
  if (Number.isFinite(c)) rows.push([`${what} (Chromium)`, ratio(c), c <= FLAT_GOAL ? "**met**" : "**not met**"]);
  return rows;
}

/** @param {string} build the build/ directory */
export function flatSections(build) {
  const read = (/** @type {string} */ f) => (existsSync(join(build, f)) ? readFileSync(join(build, f), "utf8") : null);
  const out = [];
  out.push(`## Flat cost as the store grows

A cold observe (the bridge's first sync of the whole declared slice of
\`makeState(n)\`, the app's store alive on the JavaScript heap) with the
module as shipped ("reserve") and the same sources built with
\`-tags pinhole_noreserve\` ("no reserve", the module before the change),
interleaved in one run. For a request above 1 MiB the module first
allocates 16 bytes per request byte at once, drops it and collects
(wasm/abi_wasip1.go), so its memory grows in one step instead of a few
megabytes at a time; "memory" is the module's linear memory after the call.
The goal: at 100,000 orders, at most 1.5× the cost per MB at 10,000.
`);
  const node = read("bench-flat.json");
  if (!node) out.push("Node: not run (`make bench-flat` writes build/bench-flat.json).\n");
  else {
    const N = JSON.parse(node);
    const rows = N.rows;
    const get = (/** @type {string} */ m, /** @type {number} */ n) => rows.find((r) => r.module === m && r.orders === n);
    out.push(`### Node ${N.node}

From build/bench-flat.json (written ${when(join(build, "bench-flat.json"))}${N.quick ? ", QUICK RUN" : ""}; load average ${load(N.loadAverageAtStart)} at the start, ${load(N.loadAverageAtEnd)} at the end, on 2 shared cores). One fresh process per sample, ${rows[0]?.runs ?? "?"} samples each; medians. Wall time is what a user waits and swings with the load; CPU time (the process, all threads, during the call) is the steadier figure here. "Full GCs": mark-compact collections of the JS heap during the call (\`--trace-gc\`).

${table(["orders", "request", "module", "wall ms", "wall ms/MB", "CPU ms", "CPU ms/MB", "full GCs", "memory", "memory ÷ request", "peak RSS"],
      rows.map((/** @type {any} */ r) => [int(r.orders), mb(r.requestBytes), r.module === "reserve" ? "**reserve**" : "no reserve", ms(r.observeMs), ms(r.msPerMB), ms(r.cpuMs), ms(r.cpuMsPerMB), String(r.fullGCs), mb(r.memoryBytes), (r.memoryBytes / r.requestBytes).toFixed(1) + "×", mb(r.rssPeakBytes)]))}
`);
    const goal = [];
    for (const m of ["reserve", "noreserve"]) {
      const x = nodeRatios(N, m);
      if (!x) continue;
      goal.push([m === "reserve" ? "**reserve**" : "no reserve", ratio(x.cpu), ratio(x.wall), m === "reserve" ? (x.cpu <= FLAT_GOAL ? "**met** (CPU)" : "**not met** (CPU)") + (x.wall <= FLAT_GOAL ? ", met in wall time" : ", not met in wall time (load)") : "–"]);
    }
    const r100 = get("reserve", 100000), n100 = get("noreserve", 100000);
    if (goal.length) {
      out.push(table(["module", "100,000 ÷ 10,000 orders, CPU ms/MB", "same, wall ms/MB", "goal ≤ 1.5×"], goal) + "\n");
    }
    if (r100 && n100) {
      out.push(`At 100,000 orders the reservation costs ${ratio(r100.memoryBytes / n100.memoryBytes)} the module memory (${mb(r100.memoryBytes)} against ${mb(n100.memoryBytes)}) and saves ${ratio(n100.cpuMs / r100.cpuMs)} of the CPU time (${int(n100.fullGCs)} full collections of the JS heap become ${int(r100.fullGCs)}).\n`);
    }
  }
  const chr = read("bench-flat-chromium.json");
  if (!chr) out.push("Chromium: not run (`make bench-flat` writes build/bench-flat-chromium.json).\n");
  else {
    const C = JSON.parse(chr);
    out.push(`### Chromium ${C.chromium}

From build/bench-flat-chromium.json (written ${when(join(build, "bench-flat-chromium.json"))}${C.quick ? ", QUICK RUN" : ""}; load average ${load(C.loadAverageAtStart)} at the start, ${load(C.loadAverageAtEnd)} at the end). One fresh browser context per sample; wall time of the module call, median (p10–p90) of ${C.observe[0]?.observeMs.n ?? "?"} samples.

${table(["orders", "request", "module", "ms", "ms/MB", "memory"], C.observe.map((/** @type {any} */ r) => [int(r.orders), mb(r.requestBytes), r.module === "reserve" ? "**reserve**" : "no reserve", `${ms(r.observeMs.median)} (${ms(r.observeMs.p10)}–${ms(r.observeMs.p90)})`, ms(r.msPerMB), mb(r.memoryBytes)]))}
`);
    const g = [];
    for (const m of ["reserve", "noreserve"]) {
      const x = chromiumRatio(C, m);
      if (Number.isFinite(x)) g.push([m === "reserve" ? "**reserve**" : "no reserve", ratio(x), m === "reserve" ? (x <= FLAT_GOAL ? "**met**" : "**not met**") : "–"]);
    }
    if (g.length) out.push(table(["module", "100,000 ÷ 10,000 orders, ms/MB", "goal ≤ 1.5×"], g) + "\n");
    out.push("Chromium's V8 does not run a full collection of the JS heap on each memory growth as Node 20's does, so the reservation has little to save there and costs the same extra memory; with few samples on a loaded machine, differences between the two rows of this size are noise more than signal.\n");
  }
  const wz = read("bench-wazero.txt");
  out.push(`### Under wazero (host/)
`);
  if (!wz) out.push("not run (`make bench-wazero` writes build/bench-wazero.txt).\n");
  else {
    const b = goBench(wz, "Observe100kCold");
    const label = { reserve: "**reserved memory** (default)", copy: "wazero's copying growth (`WithMemoryReserve(false)`)", "copy,noreserve-module": "copying growth, module without its heap reservation (before both changes)" };
    out.push(`From build/bench-wazero.txt (written ${when(join(build, "bench-wazero.txt"))}): \`BenchmarkObserve100kCold\`, a fresh session's first observe of 100,000 orders (the declared slice, 26 MB), medians over the runs. With reserved memory each session maps its largest memory as address space (Linux, 64-bit) and growth moves nothing; otherwise wazero reallocates and copies the memory on each growth. Peak RSS is the process's, and the cases run in this order, so a later case's peak is at least an earlier one's.

${table(["memory", "runs", "wall ms/MB", "CPU ms/MB", "module memory", "peak RSS"], [...b].map(([k, v]) => [/** @type {any} */ (label)[k] ?? k, String(v.runs), ms(v["ms/MB"]), ms(v["cpu-ms/MB"]), mb(v["memory-bytes"]), mb(v["peak-rss-bytes"])]))}
`);
  }
  const cli = read("bench-cli.txt");
  out.push(`### The CLI's compilation cache
`);
  if (!cli) out.push("not run (`make bench-cli` writes build/bench-cli.txt).\n");
  else {
    const b = goBench(cli, "CLIDescribe");
    const label = { "no-cache": "cache off (`PINHOLE_NO_CACHE=1`): compiles every run", "cold-cache": "first run (empty cache directory)", "warm-cache": "later runs (compiled code from the disk cache)" };
    out.push(`From build/bench-cli.txt (written ${when(join(build, "bench-cli.txt"))}): \`pinhole describe --wasm build/pinhole.wasm\` on the orders example, a new process per run; mean per process.

${table(["run", "processes", "wall ms", "CPU ms"], [...b].map(([k, v]) => [/** @type {any} */ (label)[k] ?? k, String(v.ops * v.runs), ms(v["ns/op"] / 1e6), ms(v["cpu-ms/op"])]))}
`);
  }
  out.push(`## Start-up caching
`);
  if (!chr || !JSON.parse(chr).visits) out.push("not run (`make bench-flat` writes build/bench-flat-chromium.json).\n");
  else {
    const V = JSON.parse(chr).visits;
    const row = (/** @type {string} */ name, /** @type {any} */ v) => [name, ms(v.first), `${ms(v.repeat.median)} (${ms(v.repeat.p10)}–${ms(v.repeat.p90)})`, String(v.repeat.n), String(v.codeCacheEntries ?? "?")];
    out.push(`\`WebAssembly.compileStreaming(fetch("/pinhole.wasm"))\` in Chromium, the module served by web/serve.mjs with an ETag and \`Cache-Control: no-cache\` (a repeat visit revalidates and gets a 304), on a fresh persistent profile (a disk cache, as a user's browser has). "Browser restarted": the browser is closed and started again on the same profile before each visit, so only what Chromium keeps on disk carries over; "same browser": each visit is a new page of one running browser. The no-store rows fetch and compile anew on every visit: a repeat visit no faster than its no-store row means no compiled code was reused from the cache. "Wasm code cache entries": files in the profile's \`Code Cache/wasm\` directory after the visits, where Chromium keeps compiled wasm code between sessions.

${table(["visits", "first visit, ms", "repeat visits, ms", "repeats", "wasm code cache entries"], [
      row("browser restarted, HTTP cache", V.restarted), row("browser restarted, `cache: no-store`", V.restartedNoStore),
      row("same browser, HTTP cache", V.sameBrowser), row("same browser, `cache: no-store`", V.sameBrowserNoStore)])}
`);
    const entries = [V.restarted, V.restartedNoStore, V.sameBrowser, V.sameBrowserNoStore].reduce((a, v) => a + (v.codeCacheEntries ?? 0), 0);
    out.push(entries === 0
      ? "Chromium's wasm code cache did not kick in: it wrote no compiled wasm code in any of these runs (V8 caches a module's code only after optimising enough of it, which a page's start-up does not reach), so every visit compiles again, and the HTTP cache saves only the download (small on this loopback server). What the bridge can do is start early: `preloadPinhole()` begins fetching and compiling before the app builds its store, and `createPinhole` reuses it.\n"
      : `Chromium wrote ${entries} entries to its wasm code cache; compare the repeat visits with their no-store rows to see what they saved.\n`);
  }
  return out.join("\n");
}
