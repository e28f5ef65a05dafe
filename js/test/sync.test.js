// Incremental sync: coalescing, the patch/full choice, and the property
// that a patched snapshot describes exactly as a fresh full observe does.
import test from "node:test";
import assert from "node:assert/strict";
import { createPinhole, createModuleInstance } from "../src/index.js";
import { WASM, MANIFEST, KEY, ordersState, plainStore, recorder, settle, setStatus } from "./helpers.js";

/** @param {any} [opts] */
async function setup(opts = {}) {
  const rec = recorder();
  const store = plainStore(ordersState());
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, key: KEY, trace: rec.trace, ...opts });
  return { p, store, rec };
}

test("a burst of 100 synchronous store updates makes one observe", async () => {
  const { p, store, rec } = await setup();
  store.setState((s) => setStatus(s, 0, "On hold")); // learn whether patches are accepted
  await settle();
  const before = rec.ops("observe").length;
  for (let i = 0; i < 100; i++) store.setState((s) => setStatus(s, i % 48, `Status ${i}`));
  assert.equal(rec.ops("observe").length, before, "nothing is sent inside the app's update");
  await settle();
  assert.equal(rec.ops("observe").length - before, 1);
  p.dispose();
});

test("frame coalescing waits for the next frame", async () => {
  const { p, store, rec } = await setup({ coalesce: "frame" });
  const before = rec.ops("observe").length;
  for (let i = 0; i < 10; i++) store.setState((s) => setStatus(s, i, "Held for frame"));
  await Promise.resolve();
  assert.equal(rec.ops("observe").length, before);
  await new Promise((r) => setTimeout(r, 40));
  const after = rec.ops("observe").slice(before);
  assert.equal(after.length, 1);
  assert.equal(after[0].patch.length, 10, "one patch with the ten changes");
  p.dispose();
});

test("one changed record is sent as a one-operation JSON Patch", async () => {
  const { p, store, rec } = await setup();
  const before = rec.sent.length;
  store.setState((s) => setStatus(s, 1, "Shipped"));
  await settle();
  assert.equal(rec.sent[before], '{"op":"observe","patch":[{"op":"replace","path":"/orders/items/1/status","value":"Shipped"}]}');
  p.dispose();
});

test("the module accepts the patch: no full observe follows it", async () => {
  const { p, store, rec } = await setup();
  const before = rec.ops("observe").length;
  store.setState((s) => setStatus(s, 1, "Shipped"));
  await settle();
  const after = rec.ops("observe").slice(before);
  assert.equal(after.length, 1, `sent ${after.map((o) => (o.patch ? "patch" : "full")).join(", ")}; module said ${rec.answers.at(-1)}`);
  assert.ok(after[0].patch);
  p.dispose();
});

test("an undeclared change sends nothing", async () => {
  const { p, store, rec } = await setup();
  const before = rec.sent.length;
  store.setState((s) => ({ ...s, session: { ...s.session, token: "rotated" }, orders: { ...s.orders, page: 2 } }));
  await settle();
  assert.equal(rec.sent.length, before);
  p.dispose();
});

test("a change larger than the patch budget is sent as a full observe", async () => {
  const { p, store, rec } = await setup({ maxPatchOps: 10 });
  const before = rec.ops("observe").length;
  store.setState((s) => ({ ...s, orders: { ...s.orders, items: s.orders.items.map((/** @type {any} */ o) => ({ ...o, status: "Shipped" })) } }));
  await settle();
  const after = rec.ops("observe").slice(before);
  assert.equal(after.length, 1);
  assert.ok(after[0].state && !after[0].patch);
  p.dispose();
});

test("a mutable store is compared by value: the patch holds only the change", async () => {
  const state = ordersState();
  const listeners = new Set();
  const store = { mutable: true, getState: () => state, subscribe: (/** @type {any} */ l) => (listeners.add(l), () => listeners.delete(l)) };
  const rec = recorder();
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, trace: rec.trace });
  const before = rec.sent.length;
  state.orders.items[5].customer.name = "Renamed Person";
  state.orders.items[5].internalNote = "not declared";
  for (const l of listeners) /** @type {any} */ (l)();
  await settle();
  assert.equal(rec.sent[before], '{"op":"observe","patch":[{"op":"replace","path":"/orders/items/5/customer/name","value":"Renamed Person"}]}');
  assert.equal(/** @type {any} */ (await p.describe({ record: ["SO-1006"] })).context.records[0].fields.customer, "Renamed Person");
  p.dispose();
});

/** A deterministic PRNG for the property test. */
function rng(seed) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
}

test("after any sequence of changes the bridge describes what a fresh full observe describes", async () => {
  const { p, store } = await setup();
  const rand = rng(7);
  const pick = (/** @type {any[]} */ a) => a[Math.floor(rand() * a.length)];
  const changes = [
    (/** @type {any} */ s) => setStatus(s, Math.floor(rand() * s.orders.items.length), pick(["Shipped", "Ready to ship", "On hold"])),
    (/** @type {any} */ s) => ({ ...s, orders: { ...s.orders, items: [...s.orders.items, { ...s.orders.items[0], number: `SO-${5000 + Math.floor(rand() * 1000)}` }] } }),
    (/** @type {any} */ s) => ({ ...s, orders: { ...s.orders, items: s.orders.items.slice(0, -1) } }),
    (/** @type {any} */ s) => ({ ...s, orders: { ...s.orders, items: s.orders.items.slice(1) } }),
    (/** @type {any} */ s) => ({ ...s, orders: { ...s.orders, filter: pick(["all", "open", "late"]) } }),
    (/** @type {any} */ s) => ({ ...s, ui: { ...s.ui, detailOpen: !s.ui.detailOpen, selected: s.ui.detailOpen ? null : "SO-1002" } }),
    (/** @type {any} */ s) => ({ ...s, ui: { ...s.ui, toasts: [...s.ui.toasts, { message: "Saved", kind: "success", origin: "app" }] } }),
    (/** @type {any} */ s) => ({ ...s, ui: { ...s.ui, toasts: [] } }),
    (/** @type {any} */ s) => ({ ...s, session: { ...s.session, role: pick(["clerk", "manager"]) } }),
    (/** @type {any} */ s) => ({ ...s, router: { ...s.router, query: { ...s.router?.query, status: pick(["open", "closed"]) } } }),
    (/** @type {any} */ s) => { const items = s.orders.items.slice(); const i = Math.floor(rand() * items.length); items[i] = { ...items[i], customer: { ...items[i].customer, email: undefined } }; return { ...s, orders: { ...s.orders, items } }; },
    (/** @type {any} */ s) => { const { router, ...rest } = s; return rand() < 0.5 ? rest : { ...rest, router: { path: "/orders", title: "Orders" } }; },
  ];
  const bare = await createModuleInstance(WASM);
  for (let step = 0; step < 40; step++) {
    const n = 1 + Math.floor(rand() * 3);
    for (let k = 0; k < n; k++) store.setState(pick(changes));
    await settle();
    const got = (await p.describeText({ limit: 50 })).replace(/^\{"snapshot":"s[0-9]+"/, "");
    bare.call(JSON.stringify({ op: "load", manifest: MANIFEST, key: KEY }));
    bare.call(JSON.stringify({ op: "observe", state: JSON.parse(JSON.stringify(store.getState())) }));
    const want = bare.call('{"op":"describe","limit":50}').replace(/^\{"snapshot":"s[0-9]+"/, "");
    assert.equal(got, want, `step ${step}`);
  }
  p.dispose();
});
