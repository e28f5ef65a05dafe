// The React integration (@pinholectx/pinhole/react) with the real React and
// react-dom in a jsdom page: one bridge through StrictMode's double mount,
// disposed on unmount (also when it arrives after the unmount), handlers of
// the latest render, the provider, and a setup error as state.
import { readFileSync } from "node:fs";
import test from "node:test";
import assert from "node:assert/strict";
import { StrictMode, act, createElement as h, useEffect } from "react";
import { createRoot } from "react-dom/client";
import { PinholeProvider, usePinhole, useProvidedPinhole } from "../src/adapters/react.js";
import { PinholeSetupError } from "../src/index.js";
import { installDom } from "./dom.js";
import { WASM, MANIFEST, ordersState, plainStore, recorder, settle } from "./helpers.js";

installDom();
/** @type {any} */ (globalThis).IS_REACT_ACT_ENVIRONMENT = true;

/** A store that counts subscriptions: one per bridge, released on dispose. */
function countingStore() {
  const store = plainStore(ordersState());
  let subscribed = 0;
  return {
    getState: store.getState,
    /** @param {() => void} l */
    subscribe(l) {
      subscribed++;
      return store.subscribe(l);
    },
    setState: store.setState,
    get subscribed() { return subscribed; },
    get active() { return store.listeners.size; },
  };
}

/** waitFor polls cond (under act, so React's updates are flushed). */
async function waitFor(/** @type {() => boolean} */ cond, what = "condition") {
  for (let i = 0; i < 400; i++) {
    if (cond()) return;
    await act(() => new Promise((r) => setTimeout(r, 10)));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** mount renders element into a fresh root. */
async function mount(/** @type {any} */ element) {
  const root = createRoot(document.createElement("div"));
  await act(() => root.render(element));
  return root;
}

test("StrictMode's double mount keeps one bridge; unmount disposes it", async () => {
  const store = countingStore();
  const rec = recorder();
  /** @type {any[]} */
  const seen = [];
  let effectMounts = 0;
  function Probe() {
    const state = usePinhole({ wasm: WASM, manifest: MANIFEST, store, trace: rec.trace });
    useEffect(() => { effectMounts++; }, []);
    seen.push(state);
    return null;
  }
  const root = await mount(h(StrictMode, null, h(Probe)));
  await waitFor(() => seen.at(-1).pinhole !== null, "the bridge");
  assert.equal(effectMounts, 2, "StrictMode mounted the effects twice (else this test proves nothing)");
  const { pinhole } = seen.at(-1);
  assert.equal(rec.ops("load").length, 1, "one module load");
  assert.equal(store.subscribed, 1, "one bridge subscribed to the store");
  assert.ok(seen.every((s) => s.pinhole === null || s.pinhole === pinhole), "one bridge across renders");
  const d = /** @type {any} */ (await pinhole.describe());
  assert.equal(d.context.recordsTotal, 48);

  await act(() => root.unmount());
  await settle();
  assert.equal(store.active, 0, "unmount unsubscribed the bridge from the store");
  assert.equal(/** @type {any} */ (await pinhole.describe()).error.code, "not_loaded", "unmount disposed the bridge");
  assert.equal(rec.ops("load").length, 1);
});

test("a bridge that arrives after its component unmounted is disposed at once", async () => {
  const store = countingStore();
  const rec = recorder();
  // The module arrives as a streamed response whose bytes are held back
  // until the component has unmounted, so the bridge cannot start before.
  /** @type {ReadableStreamDefaultController<Uint8Array>} */
  let body;
  const wasm = new Response(new ReadableStream({ start(c) { body = c; } }),
    { headers: { "content-type": "application/wasm" } });
  function Probe() {
    usePinhole({ wasm, manifest: MANIFEST, store, trace: rec.trace });
    return null;
  }
  const root = await mount(h(StrictMode, null, h(Probe)));
  await act(() => root.unmount()); // before the module is compiled
  assert.equal(store.subscribed, 0, "unmounted before the bridge started");
  body.enqueue(new Uint8Array(readFileSync(WASM)));
  body.close();
  await waitFor(() => store.subscribed === 1, "the late bridge");
  await settle();
  assert.equal(store.active, 0, "the late bridge was disposed");
  assert.equal(rec.ops("load").length, 1, "one module load");
});

test("PinholeProvider shares one bridge, and handlers come from the latest render", async () => {
  const store = countingStore();
  /** @type {string[]} */
  const calls = [];
  /** @type {any} */
  let fromChild = null;
  function Child() {
    fromChild = useProvidedPinhole();
    return null;
  }
  /** @type {any[]} */
  const failed = [];
  const options = (/** @type {string} */ who) => ({
    wasm: WASM, manifest: MANIFEST, store,
    actions: {
      "order.open": (/** @type {any} */ r) => { calls.push(`${who}:${r.record}`); },
      "order.ship": () => { throw new Error("the carrier is down"); },
    },
    onActionError: (/** @type {any} */ err, /** @type {string} */ capability) => { failed.push([who, capability, err.message]); },
  });
  const root = await mount(h(StrictMode, null, h(PinholeProvider, { options: options("first") }, h(Child))));
  await waitFor(() => fromChild?.pinhole !== null, "the provided bridge");
  const { pinhole } = fromChild;
  await act(() => root.render(h(StrictMode, null, h(PinholeProvider, { options: options("second") }, h(Child)))));
  assert.equal(fromChild.pinhole, pinhole, "a re-render keeps the bridge");
  const d = /** @type {any} */ (await pinhole.describe());
  const res = /** @type {any} */ (await pinhole.execute({ capability: "order.open", record: "SO-1001", input: {}, snapshot: d.snapshot }));
  assert.equal(res.ok, true, JSON.stringify(res));
  assert.deepEqual(calls, ["second:SO-1001"], "the latest render's handler ran");
  const d2 = /** @type {any} */ (await pinhole.describe());
  const shipped = /** @type {any} */ (await pinhole.execute({ capability: "order.ship", record: "SO-1001", input: { carrier: "dhl" }, snapshot: d2.snapshot }));
  assert.equal(shipped.error?.code, "action_failed", JSON.stringify(shipped));
  assert.deepEqual(failed, [["second", "order.ship", "the carrier is down"]], "onActionError gets the error and the capability, from the latest render");
  assert.equal(store.subscribed, 1);
  await act(() => root.unmount());
  await settle();
  assert.equal(store.active, 0);
});

test("handlers as a class's methods (with a throwing getter) or behind a Proxy reach the bridge through the hooks", async () => {
  class Actions {
    constructor() { this.calls = /** @type {string[]} */ ([]); }
    get broken() { throw new Error("a getter of the app's"); }
    "order.open"(/** @type {any} */ r) { this.calls.push(`class:${r.record}`); }
  }
  /** @type {string[]} */
  const viaProxy = [];
  const proxy = new Proxy({}, { get: (_, n) => (n === "order.open" ? (/** @type {any} */ r) => void viaProxy.push(`proxy:${r.record}`) : undefined) });
  for (const [actions, calls] of /** @type {[any, () => string[]][]} */ ([[new Actions(), function () { return this.calls; }], [proxy, () => viaProxy]])) {
    /** @type {any} */
    let state = null;
    function App() {
      state = usePinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()), actions });
      return null;
    }
    const root = await mount(h(App));
    await waitFor(() => state?.pinhole !== null || state?.error !== null, "the bridge");
    assert.equal(state.error, null, String(state.error));
    const d = /** @type {any} */ (await state.pinhole.describe());
    const res = /** @type {any} */ (await state.pinhole.execute({ capability: "order.open", record: "SO-1001", input: {}, snapshot: d.snapshot }));
    assert.equal(res.ok, true, JSON.stringify(res));
    assert.deepEqual(calls.call(actions), [`${actions === proxy ? "proxy" : "class"}:SO-1001`]);
    await act(() => root.unmount());
  }
});

test("useProvidedPinhole outside a provider throws; a rejected manifest is the error state", async () => {
  const errors = [];
  function Orphan() {
    try {
      useProvidedPinhole();
    } catch (e) {
      errors.push(/** @type {Error} */ (e).message);
    }
    return null;
  }
  await act(() => createRoot(document.createElement("div")).render(h(Orphan)));
  assert.match(errors[0], /no <PinholeProvider>/);

  /** @type {any[]} */
  const seen = [];
  function Bad() {
    seen.push(usePinhole({ wasm: WASM, manifest: { pinhole: 99 }, store: plainStore({}) }));
    return null;
  }
  const root = await mount(h(Bad));
  await waitFor(() => seen.at(-1).error !== null, "the error");
  assert.ok(seen.at(-1).error instanceof PinholeSetupError);
  assert.equal(seen.at(-1).pinhole, null);
  await act(() => root.unmount());
});
