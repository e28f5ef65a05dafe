// One cold start in a fresh Node process, from bytes in memory. run.mjs and
// startup.mjs start one process per sample, so no compiled code or
// background compilation carries over between samples. Prints the figures
// as JSON.
//
//   node startup-node.mjs           pinhole.wasm: compile, instantiate +
//                                   _initialize, load of the orders manifest,
//                                   then createPinhole + the first describe
//                                   of the 48-order store (web/bench/run.mjs)
//   node startup-node.mjs pinhole   pinhole.wasm phase by phase (coldstart.mjs)
//   node startup-node.mjs empty     the empty Go reactor (build/empty-reactor.wasm)
//   node startup-node.mjs baseline FILE   another build of pinhole.wasm, phase by phase
//   node startup-node.mjs init      pinhole.wasm up to _initialize, no load
//   node startup-node.mjs settled   pinhole.wasm phase by phase, its load
//                                   started SETTLE_MS after _initialize (the
//                                   pause not timed: coldstart.mjs)
//   node startup-node.mjs none      the same script and imports, no module
//                                   (Node's own start, for the instruction
//                                   counts of startup.mjs)
//
// --settle waits 300 ms before printing, so that background compilations
// the start triggered finish within the process (startup.mjs counts them
// with --trace-wasm-compilation-times).
import { readFileSync } from "node:fs";
import { startup, KEY } from "./latency.mjs";
import { coldStart, SETTLE_MS } from "./coldstart.mjs";

const which = process.argv[2];
const file = which === "empty" ? "empty-reactor.wasm" : "pinhole.wasm";
const bytes = which === "baseline" ? readFileSync(process.argv[3]) : readFileSync(new URL("../../build/" + file, import.meta.url));
const manifest = JSON.parse(readFileSync(new URL("../../testdata/orders/manifest.json", import.meta.url), "utf8"));
let out;
if (which === "none") {
  out = {};
} else if (["pinhole", "empty", "baseline", "init", "settled"].includes(which)) {
  const load = which === "empty" || which === "init" ? null : `{"op":"load","manifest":${JSON.stringify(manifest)},"key":${JSON.stringify(KEY)}}`;
  const t0 = process.cpuUsage();
  out = (await coldStart(() => WebAssembly.compile(bytes), load, which === "settled" ? SETTLE_MS : 0)).times;
  const cpu = process.cpuUsage(t0);
  out.cpu = (cpu.user + cpu.system) / 1000;
} else {
  out = await startup(() => WebAssembly.compile(bytes), manifest, 1);
}
if (process.argv.includes("--settle")) await new Promise((r) => setTimeout(r, 300));
process.stdout.write(JSON.stringify(out) + "\n");
