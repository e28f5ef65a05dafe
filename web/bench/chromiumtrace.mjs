// lazyCompiles reads what V8 compiled on a page's thread during one cold
// start in Chromium, from the browser's own trace (Playwright's
// browser.startTracing with the "v8.wasm" and "devtools.timeline"
// categories). V8 compiles a WebAssembly function on its first call, on
// the thread that calls it: each such compile is one complete
// ("ph": "X") `wasm.CompileLazy` event on the page's main thread. The page
// marks each phase of the start with console.timeStamp("coldstart:PHASE")
// (coldstart.mjs, startup-page.mjs), which the trace holds as `TimeStamp`
// events; a compile counts in the phase whose marks surround its start.
// startup.mjs records the result for both modules.

const PREFIX = "coldstart:";

/**
 * @typedef {{name: string, ph?: string, ts: number, dur?: number, pid: number, tid: number, args?: any}} TraceEvent
 * @typedef {{functions: number, ms: number}} Compiles
 */

/**
 * lazyCompiles counts the lazy compiles of each phase and their time on the
 * page's main thread (the thread that wrote the marks), in milliseconds.
 * Returns null when the trace lacks the marks (a page that was not traced,
 * or a category left out).
 * @param {TraceEvent[]} events
 * @returns {Record<string, Compiles> | null} by phase, and "total"
 */
export function lazyCompiles(events) {
  const marks = events
    .filter((e) => e.name === "TimeStamp" && String(e.args?.data?.message ?? "").startsWith(PREFIX))
    .sort((a, b) => a.ts - b.ts);
  const end = marks.findIndex((m) => m.args.data.message === PREFIX + "end");
  if (marks.length < 2 || end < 1) return null;
  const { pid, tid } = marks[0];
  /** @type {Record<string, Compiles>} */
  const out = { total: { functions: 0, ms: 0 } };
  for (const m of marks.slice(0, end)) out[m.args.data.message.slice(PREFIX.length)] = { functions: 0, ms: 0 };
  for (const e of events) {
    if (e.name !== "wasm.CompileLazy" || e.ph !== "X" || e.pid !== pid || e.tid !== tid) continue;
    if (e.ts < marks[0].ts || e.ts >= marks[end].ts) continue;
    let i = 0;
    while (i + 1 < end && marks[i + 1].ts <= e.ts) i++;
    for (const c of [out[marks[i].args.data.message.slice(PREFIX.length)], out.total]) {
      c.functions++;
      c.ms += (e.dur ?? 0) / 1000;
    }
  }
  return out;
}
