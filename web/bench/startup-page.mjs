// The start-up benchmark's page (bundled by web/bench/startup.mjs): one cold
// start of pinhole.wasm or of the empty Go reactor in this fresh page, from
// bytes fetched beforehand and made unique so that nothing is cached (both
// untimed), phase by phase (coldstart.mjs).
import manifest from "../../testdata/orders/manifest.json";
import { coldStart } from "./coldstart.mjs";
import { KEY, unique } from "./latency.mjs";

Object.assign(window, {
  startup: {
    /**
     * @param {"pinhole" | "empty" | "baseline"} which
     * @param {boolean} [traced] mark each phase in the page's trace (console.timeStamp)
     */
    async run(which, traced = false) {
      const url = which === "pinhole" ? "/pinhole.wasm" : `/${which === "empty" ? "empty-reactor" : "baseline"}.wasm`;
      const bytes = new Uint8Array(await (await fetch(url, { cache: "no-store" })).arrayBuffer());
      const load = which !== "empty" ? `{"op":"load","manifest":${JSON.stringify(manifest)},"key":${JSON.stringify(KEY)}}` : null;
      const fresh = unique(bytes); // copied and marked before the clock starts
      const mark = traced ? (/** @type {string} */ phase) => console.timeStamp("coldstart:" + phase) : undefined;
      return (await coldStart(() => WebAssembly.compile(fresh), load, 0, mark)).times;
    },
  },
});
document.documentElement.dataset.ready = "true";
