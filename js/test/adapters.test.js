// Each store adapter against the real library from npm: the bridge follows
// a change made through the library's own API.
import test from "node:test";
import assert from "node:assert/strict";
import { legacy_createStore } from "redux";
import { configureStore, createSlice } from "@reduxjs/toolkit";
import { createStore as createZustand } from "zustand/vanilla";
import { createPinia, setActivePinia, defineStore } from "pinia";
import { observable, runInAction, makeAutoObservable } from "mobx";
import { createPinhole } from "../src/index.js";
import { fromRedux } from "../src/adapters/redux.js";
import { fromZustand } from "../src/adapters/zustand.js";
import { fromExternalStore } from "../src/adapters/react.js";
import { fromPinia } from "../src/adapters/pinia.js";
import { fromMobx } from "../src/adapters/mobx.js";
import { WASM, MANIFEST, ordersState, recorder, settle, setStatus } from "./helpers.js";

/**
 * follows checks that a bridge over store shows SO-1002's status after
 * change() runs, and that nothing undeclared was sent.
 * @param {any} store @param {() => void} change
 */
async function follows(store, change) {
  const rec = recorder();
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, trace: rec.trace });
  const status = async () => /** @type {any} */ (await p.describe({ record: ["SO-1002"] })).context.records[0].fields.status;
  assert.equal(await status(), "Awaiting payment");
  /** @type {string[]} */
  const snaps = [];
  p.subscribe((e) => snaps.push(e.snapshot));
  change();
  await settle();
  assert.deepEqual(snaps, ["s2"], "one snapshot per burst");
  assert.equal(await status(), "Shipped");
  assert.ok(!rec.sent.join("").includes("eyJhbGciOi"), "the session token never crossed");
  p.dispose();
  return rec;
}

const reducer = (/** @type {any} */ s = ordersState(), /** @type {any} */ a) => (a.type === "ship" ? setStatus(s, a.index, "Shipped") : s);

test("redux", async () => {
  const store = legacy_createStore(reducer);
  await follows(fromRedux(store), () => store.dispatch({ type: "ship", index: 1 }));
});

test("redux toolkit", async () => {
  const initial = ordersState();
  const slice = createSlice({
    name: "orders",
    initialState: initial.orders,
    reducers: { ship: (s, a) => void (s.items[a.payload].status = "Shipped") },
  });
  const passthrough = (/** @type {string} */ k) => (s = initial[k]) => s;
  const store = configureStore({
    reducer: { router: passthrough("router"), session: passthrough("session"), ui: passthrough("ui"), orders: slice.reducer },
    middleware: (getDefault) => getDefault({ serializableCheck: false, immutableCheck: false }),
  });
  const rec = await follows(fromRedux(store), () => store.dispatch(slice.actions.ship(1)));
  const patches = rec.ops("observe").filter((o) => o.patch);
  assert.deepEqual(patches[0].patch, [{ op: "replace", path: "/orders/items/1/status", value: "Shipped" }],
    "immer's structural sharing gives a one-operation patch");
});

test("zustand", async () => {
  const store = createZustand(() => ordersState());
  await follows(fromZustand(store), () => store.setState((s) => setStatus(s, 1, "Shipped"), true));
});

test("react useSyncExternalStore shape", async () => {
  let snapshot = ordersState();
  const listeners = new Set();
  const source = {
    getSnapshot: () => snapshot,
    subscribe: (/** @type {() => void} */ l) => (listeners.add(l), () => listeners.delete(l)),
  };
  await follows(fromExternalStore(source), () => {
    snapshot = setStatus(snapshot, 1, "Shipped");
    for (const l of listeners) /** @type {any} */ (l)();
  });
  assert.equal(listeners.size, 0, "dispose unsubscribed");
});

test("pinia, one store per key", async () => {
  setActivePinia(createPinia());
  const initial = ordersState();
  const stores = {
    router: defineStore("router", { state: () => initial.router })(),
    session: defineStore("session", { state: () => initial.session })(),
    ui: defineStore("ui", { state: () => initial.ui })(),
    orders: defineStore("orders", {
      state: () => initial.orders,
      actions: { ship(/** @type {number} */ i) { this.items[i].status = "Shipped"; } },
    })(),
  };
  await follows(fromPinia(stores), () => stores.orders.ship(1));
});

test("pinia, a single store", async () => {
  setActivePinia(createPinia());
  const useAll = defineStore("all", { state: () => ordersState() });
  const store = useAll();
  await follows(fromPinia(store), () => store.$patch((s) => { s.orders.items[1].status = "Shipped"; }));
});

test("mobx observable object", async () => {
  const state = observable(ordersState());
  await follows(fromMobx(state), () => runInAction(() => { state.orders.items[1].status = "Shipped"; }));
});

test("mobx class store; undeclared changes do not wake the bridge", async () => {
  class Store {
    constructor() {
      Object.assign(this, ordersState());
      makeAutoObservable(this);
    }
  }
  const store = /** @type {any} */ (new Store());
  const rec = recorder();
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: fromMobx(store), trace: rec.trace });
  const before = rec.sent.length;
  runInAction(() => { store.session.token = "rotated"; store.orders.items[0].payment.authCode = "X"; store.orders.items[0].customer.address.city = "Y"; });
  await settle();
  assert.equal(rec.sent.length, before, "no reaction to undeclared paths");
  runInAction(() => { store.orders.items[1].status = "Shipped"; });
  await settle();
  assert.equal(/** @type {any} */ (await p.describe({ record: ["SO-1002"] })).context.records[0].fields.status, "Shipped");
  p.dispose();
});
