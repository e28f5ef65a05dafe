// The benchmark page's script (bundled by run.mjs into build/bench-web):
// the same latency code as in Node, run in Chromium against
// /pinhole.wasm fetched from the local server.
import manifest from "../../testdata/orders/manifest.json";
import { runSize, startup, unique } from "./latency.mjs";

const compile = () => WebAssembly.compileStreaming(fetch("/pinhole.wasm", { cache: "no-store" }));

/** The hooks run.mjs calls through page.evaluate. */
Object.assign(window, {
  bench: {
    /** @param {number} reps */
    startup: (reps) => startup(compile, manifest, reps),
    /**
     * startupFromBytes: the bytes fetched once beforehand, then compile
     * (of bytes made unique, so nothing is cached) + instantiate + load.
     * @param {number} reps
     */
    async startupFromBytes(reps) {
      const bytes = new Uint8Array(await (await fetch("/pinhole.wasm", { cache: "no-store" })).arrayBuffer());
      return startup(() => WebAssembly.compile(unique(bytes)), manifest, reps);
    },
    /**
     * split times the two halves of compileStreaming separately: fetching
     * the bytes from the local server, and compiling bytes already in memory.
     * @param {number} reps
     */
    async split(reps) {
      const out = { fetch: [], compileBytes: [] };
      for (let r = 0; r < reps; r++) {
        const t0 = performance.now();
        const bytes = await (await fetch("/pinhole.wasm", { cache: "no-store" })).arrayBuffer();
        const t1 = performance.now();
        await WebAssembly.compile(unique(new Uint8Array(bytes)));
        out.fetch.push(t1 - t0);
        out.compileBytes.push(performance.now() - t1);
      }
      return out;
    },
    /** @param {any} cfg */
    async size(cfg) {
      const module = await compile();
      return runSize(module, manifest, cfg);
    },
  },
});
document.documentElement.dataset.ready = "true";
