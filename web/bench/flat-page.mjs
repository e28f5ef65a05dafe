// The page of web/bench/flat.mjs (bundled into build/bench-flat-web): a cold
// observe of the orders store at a given size with a given module, and the
// time to fetch and compile the module with compileStreaming.
import { createPinhole } from "../../js/src/index.js";
import manifest from "../../testdata/orders/manifest.json";
import { makeState } from "../../testdata/orders/generate.mjs";

Object.assign(window, {
  flat: {
    /**
     * coldObserve creates a bridge over makeState(n) with the module at url
     * and times the module call of its first (full) observe.
     * @param {string} url @param {number} n
     */
    async coldObserve(url, n) {
      const bytes = new Uint8Array(await (await fetch(url, { cache: "no-store" })).arrayBuffer());
      const module = await WebAssembly.compile(bytes);
      const state = makeState(n); // the app's store stays alive on the JS heap
      let sentAt = 0, observeMs = 0, requestBytes = 0;
      const trace = (/** @type {string} */ dir, /** @type {string} */ text) => {
        if (dir === "in") {
          if (text.startsWith('{"op":"observe"')) requestBytes = new TextEncoder().encode(text).length;
          sentAt = performance.now();
        } else if (requestBytes && !observeMs) observeMs = performance.now() - sentAt;
      };
      const p = /** @type {any} */ (await createPinhole({ wasm: module, manifest, store: { getState: () => state, subscribe: () => () => {} }, trace }));
      const memory = p.link.instance.exports.memory.buffer.byteLength;
      p.dispose();
      return { n, requestBytes, observeMs, memory };
    },
    /**
     * compile times compileStreaming(fetch(url)) with the given fetch cache
     * mode ("default": the HTTP cache and its validators, as a page load).
     * @param {string} url @param {RequestCache} cache
     */
    async compile(url, cache) {
      const t = performance.now();
      const module = await WebAssembly.compileStreaming(fetch(url, { cache }));
      const ms = performance.now() - t;
      // Then use it as a page does (start, load, sync 1,000 orders, describe),
      // so that V8 optimises the hot functions: Chromium writes compiled
      // wasm code to its cache only after such tier-up.
      const state = makeState(1000);
      const p = await createPinhole({ wasm: module, manifest, store: { getState: () => state, subscribe: () => () => {} } });
      for (let i = 0; i < 50; i++) await p.describeText({ offset: i * 8, limit: 8 });
      p.dispose();
      return ms;
    },
  },
});
document.documentElement.dataset.ready = "true";
