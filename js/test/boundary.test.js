// The value rules at the boundary (js/README.md, "Values at the boundary").
import test from "node:test";
import assert from "node:assert/strict";
import { createPinhole } from "../src/index.js";
import { WASM, plainStore, recorder, settle } from "./helpers.js";

const MANIFEST = { pinhole: 1, regions: [{ id: "main", description: "Main" }], state: { v: "/v", w: "/w/inner" } };

class Money {
  constructor() {
    this.amount = "CLASS-SECRET";
  }
}

/** @param {any} v @param {any} [opts] */
async function bridgeFor(v, opts = {}) {
  const rec = recorder();
  /** @type {any[]} */
  const audit = [];
  const store = plainStore({ v, w: { inner: 1 } });
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, trace: rec.trace, onAudit: (e) => audit.push(e), ...opts });
  const observed = rec.ops("observe");
  return { p, store, rec, audit, sent: observed.length ? observed[observed.length - 1].state : undefined };
}

test("values cross by the documented rules", async () => {
  const sym = Symbol("s");
  const v = {
    finite: 1.5, nan: NaN, inf: Infinity, ninf: -Infinity, big: 12345678901234567890n, undef: undefined,
    date: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), badDate: new Date(NaN), map: new Map([["k", "MAP-SECRET"]]),
    set: new Set(["SET-SECRET"]), money: new Money(), fn: () => "FN-SECRET", sym,
    arr: [1, undefined, NaN, () => 1, new Set([1]), 2n], nil: null, nested: { ok: true, gone: undefined },
    nullProto: Object.assign(Object.create(null), { a: 1 }),
  };
  Object.defineProperty(v, "throws", { enumerable: true, get() { throw new Error("GETTER-SECRET"); } });
  const { p, sent, audit, rec } = await bridgeFor(v);
  assert.deepEqual(sent, {
    v: {
      finite: 1.5, nan: null, inf: null, ninf: null, big: "12345678901234567890", date: "2026-01-02T03:04:05.000Z",
      arr: [1, null, null, null, null, "2"], nil: null, nested: { ok: true }, nullProto: { a: 1 },
    },
    w: { inner: 1 },
  });
  // Warnings name the declared path of the value, never keys of the data.
  const warnings = audit.filter((e) => e.kind === "boundary").map((e) => `${e.rule} ${e.path}`).sort();
  assert.deepEqual(warnings, ["class_instance /v", "getter_threw /v", "invalid_date /v", "map_or_set /v", "not_serialisable /v"]);
  const all = JSON.stringify(audit) + rec.sent.join("");
  assert.ok(!/SECRET/.test(all), "no left-out value reaches the module or the audit");
  const d = /** @type {any} */ (await p.describe());
  assert.equal(d.context.state.v.big, "12345678901234567890");
  p.dispose();
});

test("warnings are reported once per path", async () => {
  const { p, store, audit } = await bridgeFor({ m: new Map() });
  store.setState((s) => ({ ...s, v: { m: new Map(), x: 1 } }));
  await settle();
  assert.equal(audit.filter((e) => e.kind === "boundary").length, 1);
  p.dispose();
});

test("a cycle costs that value: it is cut, the rest syncs, the app never sees a throw", async () => {
  const { p, store, audit } = await bridgeFor({ ok: 1 });
  /** @type {any} */
  const cyc = { name: "x" };
  cyc.self = { back: cyc };
  assert.doesNotThrow(() => store.setState((s) => ({ ...s, v: cyc, w: { inner: 2 } })));
  await settle();
  const d = /** @type {any} */ (await p.describe());
  assert.equal(d.context.state.v, null);
  assert.deepEqual(d.context.state.w, 2);
  assert.deepEqual(d.context.stateCut, ["v"]);
  assert.equal(d.context.cutTotal, 1);
  assert.ok(audit.some((e) => e.kind === "boundary" && e.rule === "cycle" && e.path === "/v"));
  // Once the store is sane again, the value is back.
  store.setState((s) => ({ ...s, v: { ok: 2 } }));
  await settle();
  const again = /** @type {any} */ (await p.describe());
  assert.deepEqual(again.context.state.v, { ok: 2 });
  assert.equal(again.context.stateCut, undefined);
  p.dispose();
});

test("a value nested deeper than the limit is cut; no data key reaches the agent or the audit", async () => {
  /** @type {any} */
  let deep = "leaf";
  for (let i = 0; i < 100; i++) deep = { ghp_0123456789abcdefghijklmnopqrstuvwxyzAB: deep };
  const { p, rec, audit } = await bridgeFor(deep);
  const d = /** @type {any} */ (await p.describe());
  assert.equal(d.context.state.v, null);
  assert.deepEqual(d.context.stateCut, ["v"]);
  assert.deepEqual(d.context.state.w, 1);
  assert.ok(audit.some((e) => e.kind === "boundary" && e.rule === "depth" && e.path === "/v"));
  const all = JSON.stringify(d) + JSON.stringify(audit) + rec.sent.join("") + rec.answers.join("");
  assert.ok(!all.includes("ghp_"), "a data key left the page");
  p.dispose();
});

test("a collection held in a sparse array of huge length is cut: the page is not held, the context says the collection is cut", async () => {
  /** @type {any[]} */
  const items = [];
  items[3e9] = { id: "SECRET-ID", name: "far away" };
  const manifest = { pinhole: 1, regions: [{ id: "list", description: "A list" }],
    collections: [{ region: "list", from: "/items", id: "/id", fields: { name: { from: "/name" } } }] };
  /** @type {any[]} */
  const audit = [];
  const start = performance.now();
  const p = await createPinhole({ wasm: WASM, manifest, store: plainStore({ items }), onAudit: (e) => audit.push(e) });
  const d = /** @type {any} */ (await p.describe());
  assert.ok(performance.now() - start < 5000, "the bridge read the array's places");
  assert.equal(d.context.recordsTotal, 0);
  assert.deepEqual(d.context.regions, [{ id: "list", description: "A list", cut: true }], "the agent is told the list is cut, not empty");
  assert.ok(audit.some((e) => e.kind === "boundary" && e.rule === "size" && e.path === "/items"));
  assert.deepEqual(audit.filter((e) => e.kind === "snapshot_warnings").map((e) => e.warnings), [["/items: cut; the collection is treated as empty"]]);
  assert.ok(!JSON.stringify([d, audit]).includes("SECRET-ID"));
  p.dispose();
});

test("a collection that turns from an object or an array into a cut one, and back, is synced: the region's cut follows", async () => {
  /** @type {any[]} */
  const sparse = [];
  sparse[3e9] = { id: "far", name: "far away" };
  const manifest = { pinhole: 1, regions: [{ id: "list" }],
    collections: [{ region: "list", from: "/items", id: "/id", fields: { name: { from: "/name" } } }] };
  const store = plainStore({ items: { not: "an array" } });
  const p = await createPinhole({ wasm: WASM, manifest, store });
  const cutNow = async () => /** @type {any} */ (await p.describe()).context.regions[0].cut === true;
  assert.equal(await cutNow(), false);
  for (const [items, cut] of [[sparse, true], [{ again: "an object" }, false], [sparse, true], [[{ id: "a", name: "A" }], false]]) {
    store.setState((s) => ({ ...s, items }));
    await p.flush();
    assert.equal(await cutNow(), cut, JSON.stringify(cut));
  }
  assert.equal(/** @type {any} */ (await p.describe()).context.recordsTotal, 1);
  p.dispose();
});

test("an action that leaves a collection cut answers an after that asks to describe again (modal), not 'every record removed' alone", async () => {
  /** @type {any[]} */
  const sparse = [];
  sparse[3e9] = { id: "far", name: "far away" };
  const manifest = { pinhole: 1, regions: [{ id: "list" }],
    collections: [{ region: "list", from: "/items", id: "/id", fields: { name: { from: "/name" } } }],
    capabilities: [{ name: "list.reload", description: "Reload the list", scope: "page", region: "list" }] };
  const store = plainStore({ items: [{ id: "a", name: "A" }, { id: "b", name: "B" }] });
  const p = await createPinhole({ wasm: WASM, manifest, store, actions: { "list.reload": () => store.setState((s) => ({ ...s, items: sparse })) } });
  const d = /** @type {any} */ (await p.describe());
  const r = /** @type {any} */ (await p.execute({ capability: "list.reload", snapshot: d.snapshot }));
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(r.after.redescribe.required, true);
  assert.ok(r.after.redescribe.reasons.includes("modal"), JSON.stringify(r.after.redescribe));
  assert.equal(/** @type {any} */ (await p.describe()).context.regions[0].cut, true);
  p.dispose();
});

test("a state key that becomes cut is in the after's state and stateCut, though it was null before", async () => {
  /** @type {any[]} */
  const sparse = [];
  sparse[3e9] = "far";
  const manifest = { pinhole: 1, regions: [{ id: "main" }], state: { first: "/list/0" },
    capabilities: [{ name: "list.fill", description: "Fill the list", scope: "page", region: "main" }] };
  const store = plainStore({ list: [] });
  const p = await createPinhole({ wasm: WASM, manifest, store, actions: { "list.fill": () => store.setState(() => ({ list: sparse })) } });
  const d = /** @type {any} */ (await p.describe());
  const r = /** @type {any} */ (await p.execute({ capability: "list.fill", snapshot: d.snapshot }));
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(r.after.state, { first: null });
  assert.deepEqual(r.after.stateCut, ["first"]);
  p.dispose();
});

test("a state key read by index from an array too long to read is shown as cut, not left out", async () => {
  /** @type {any[]} */
  const sparse = ["first"];
  sparse[3e9] = "far";
  const manifest = { pinhole: 1, regions: [{ id: "main" }], state: { first: "/list/0", other: "/other" } };
  const p = await createPinhole({ wasm: WASM, manifest, store: plainStore({ list: sparse, other: 1 }) });
  const d = /** @type {any} */ (await p.describe());
  assert.deepEqual(d.context.state, { first: null, other: 1 });
  assert.deepEqual(d.context.stateCut, ["first"]);
  assert.equal(d.context.cutTotal, 1);
  p.dispose();
});

test("a Proxy whose traps throw is left out, not fatal", async () => {
  const hostile = new Proxy({}, { ownKeys() { throw new Error("PROXY-SECRET"); }, getPrototypeOf() { return Object.prototype; } });
  const { p, sent, audit } = await bridgeFor({ a: 1, hostile });
  assert.deepEqual(sent.v, { a: 1 });
  assert.ok(audit.some((e) => e.kind === "boundary" && e.path === "/v"));
  p.dispose();
});

test("one record with a too-deep or cyclic value costs that value; describe and execute work", async () => {
  const { MANIFEST, ordersState, setStatus } = await import("./helpers.js");
  const state = ordersState();
  /** @type {any} */
  let deep = 1;
  for (let i = 0; i < 80; i++) deep = { ghp_0123456789abcdefghijklmnopqrstuvwxyzAB: deep };
  state.orders.items[3].items = deep;
  /** @type {any} */
  const cyc = { n: 1 };
  cyc.self = [cyc];
  state.orders.items[5].items = cyc;
  const store = plainStore(state);
  /** @type {any[]} */
  const audit = [];
  const rec = recorder();
  const p = await createPinhole({
    wasm: WASM, manifest: MANIFEST, store, trace: rec.trace, onAudit: (e) => audit.push(e),
    actions: {
      "order.ship": (/** @type {any} */ req) => {
        const i = store.getState().orders.items.findIndex((/** @type {any} */ o) => o.number === req.record);
        store.setState((s) => setStatus(s, i, "Shipped"));
      },
    },
  });
  const d = /** @type {any} */ (await p.describe());
  assert.ok(d.context, JSON.stringify(d).slice(0, 300));
  assert.equal(d.context.recordIdsTotal, 48);
  assert.equal(d.context.cutTotal, 2);
  const byId = Object.fromEntries(d.context.records.map((/** @type {any} */ r) => [r.id, r]));
  assert.deepEqual(byId["SO-1004"].cut, ["items"]);
  assert.equal(byId["SO-1004"].fields.items, null);
  assert.deepEqual(byId["SO-1006"].cut, ["items"]);
  assert.equal(byId["SO-1001"].cut, undefined);
  const r = /** @type {any} */ (await p.execute({ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot: d.snapshot }));
  assert.equal(r.ok, true, JSON.stringify(r));
  const again = /** @type {any} */ (await p.describe({ record: ["SO-1004", "SO-1001"] }));
  assert.equal(again.context.records[1].fields.status, "Shipped");
  const rules = audit.filter((e) => e.kind === "boundary").map((e) => `${e.rule} ${e.path}`).sort();
  assert.deepEqual(rules, ["cycle /orders/items/5/items", "depth /orders/items/3/items"]);
  const all = JSON.stringify(audit) + rec.sent.join("") + rec.answers.join("") + JSON.stringify(again);
  assert.ok(!all.includes("ghp_"), "a data key left the page");
  p.dispose();
});

test("keys that are lone surrogates cross as the module reads them; one that then repeats another is left out with a warning, and the rest syncs", async () => {
  const { MANIFEST, ordersState } = await import("./helpers.js");
  const state = ordersState();
  // A customer-written object under a value declared whole: "\ud800" and
  // "\udc00" are two keys in JavaScript and one (U+FFFD) for the module.
  state.orders.items[5].items = [{ sku: "x", attrs: { "\ud800": 1, "\udc00": 2, ok: 3 } }];
  state.orders.items[6].items = [{ "\ud83d": "lone", "\ud83d\ude00": "pair" }];
  /** @type {any[]} */
  const audit = [];
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(state), onAudit: (e) => audit.push(e) });
  const d = /** @type {any} */ (await p.describe({ record: ["SO-1006", "SO-1007", "SO-1001"] }));
  assert.ok(d.context, JSON.stringify(d).slice(0, 300));
  const [six, seven, one] = d.context.records;
  assert.deepEqual(six.fields.items, [{ sku: "x", attrs: { "\ufffd": 1, ok: 3 } }]);
  assert.deepEqual(seven.fields.items, [{ "\ufffd": "lone", "\ud83d\ude00": "pair" }]);
  assert.equal(one.id, "SO-1001");
  const warned = audit.filter((e) => e.kind === "boundary").map((e) => `${e.rule} ${e.path}`);
  assert.deepEqual(warned, ["duplicate_key /orders/items/5/items"]);
  p.dispose();
});
