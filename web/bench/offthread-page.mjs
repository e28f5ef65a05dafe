// The off-thread benchmark's page script (bundled by offthread.mjs with the
// bridge's worker script beside it): the orders store of testdata/orders,
// the bridge hosted as ?host= says ("main" or "worker"), and the two moments
// a user feels, run by offthread.mjs through page.evaluate while a
// PerformanceObserver records the main thread's long tasks (50 ms or more).
import { createPinhole } from "../../js/src/index.js";
import manifest from "../../testdata/orders/manifest.json";
import { makeState } from "../../testdata/orders/generate.mjs";

const host = /** @type {"main" | "worker"} */ (new URLSearchParams(location.search).get("host") ?? "worker");

/** @type {PerformanceEntry[]} */
const longTasks = [];
new PerformanceObserver((list) => longTasks.push(...list.getEntries())).observe({ type: "longtask", buffered: true });

let state = makeState(48);
const listeners = new Set();
const store = {
  getState: () => state,
  /** @param {() => void} l */
  subscribe(l) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};
/** @type {any} */
let pinhole = null;

/** A few frames and idle time, so pending long-task entries are delivered. */
const settle = () => new Promise((ok) => setTimeout(ok, 200));

/**
 * blocking sums the long tasks that started within [t0, t1]: their total
 * duration, and the total blocking time (what exceeds 50 ms in each).
 * @param {number} t0 @param {number} t1
 */
function blocking(t0, t1) {
  const in_ = longTasks.filter((e) => e.startTime >= t0 - 1 && e.startTime <= t1);
  return {
    wallMs: t1 - t0,
    longTasks: in_.length,
    longTaskMs: in_.reduce((s, e) => s + e.duration, 0),
    blockingMs: in_.reduce((s, e) => s + Math.max(0, e.duration - 50), 0),
    longestMs: in_.reduce((m, e) => Math.max(m, e.duration), 0),
  };
}

Object.assign(window, {
  offthread: {
    /** createPinhole → the first describe answered. */
    async start() {
      await settle();
      const t0 = performance.now();
      pinhole = await createPinhole({ wasm: new URL("/pinhole.wasm", location.href), manifest, store, host });
      const d = await pinhole.describe();
      const t1 = performance.now();
      await settle();
      return { host: pinhole.host, records: d.context.recordsTotal, ...blocking(t0, t1) };
    },
    /** The store switched to n orders → the module holds them (a full observe) → a describe. */
    async coldSync(n = 10000) {
      const big = makeState(n); // the app's own work, left out of the window
      await settle();
      const t0 = performance.now();
      state = big;
      for (const l of listeners) l();
      await pinhole.flush();
      const d = await pinhole.describe();
      const t1 = performance.now();
      await settle();
      return { host: pinhole.host, records: d.context.recordsTotal, ...blocking(t0, t1) };
    },
  },
});
document.documentElement.dataset.ready = "true";
