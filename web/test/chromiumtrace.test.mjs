// lazyCompiles (web/bench/chromiumtrace.mjs) on traces written here: lazy
// compiles are counted by the phase whose marks surround their start, on
// the marking thread only, and a trace without marks gives null.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lazyCompiles } from "../bench/chromiumtrace.mjs";

const mark = (/** @type {string} */ phase, /** @type {number} */ ts, tid = 1) =>
  ({ name: "TimeStamp", ph: "I", ts, pid: 7, tid, args: { data: { message: "coldstart:" + phase } } });
const compile = (/** @type {number} */ ts, /** @type {number} */ dur, tid = 1, pid = 7) =>
  ({ name: "wasm.CompileLazy", ph: "X", ts, dur, pid, tid });

test("compiles by phase, on the page's thread", () => {
  const events = [
    mark("compile", 1000), mark("instantiate", 2000), mark("initialize", 3000), mark("load", 5000), mark("end", 9000),
    compile(500, 100), // before the start
    compile(3100, 250), compile(4000, 750), // initialize
    compile(5000, 1000), // load: a compile starting at a mark belongs to the phase it starts
    compile(6000, 500, 2), // another thread
    compile(6000, 500, 1, 8), // another process
    compile(9000, 400), // after the end
    { name: "wasm.CompileBaseline", ph: "X", ts: 5100, dur: 900, pid: 7, tid: 1 },
  ];
  assert.deepEqual(lazyCompiles(events.reverse()), {
    total: { functions: 3, ms: 2 },
    compile: { functions: 0, ms: 0 },
    instantiate: { functions: 0, ms: 0 },
    initialize: { functions: 2, ms: 1 },
    load: { functions: 1, ms: 1 },
  });
});

test("a trace without the marks", () => {
  assert.equal(lazyCompiles([compile(3100, 250)]), null);
  assert.equal(lazyCompiles([mark("compile", 1000), compile(3100, 250)]), null, "no end mark");
});
