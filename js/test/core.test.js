import test from "node:test";
import assert from "node:assert/strict";
import { createPinhole, createModuleInstance, PinholeSetupError } from "../src/index.js";
import { WASM, MANIFEST, KEY, ordersState, plainStore, recorder, settle, setStatus } from "./helpers.js";
import { readFileSync } from "node:fs";

test("describe answers what the bare module answers for the same state", async () => {
  const store = plainStore(ordersState());
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, key: KEY });
  const bare = await createModuleInstance(WASM);
  bare.call(JSON.stringify({ op: "load", manifest: MANIFEST, key: KEY }));
  bare.call(JSON.stringify({ op: "observe", state: ordersState() }));
  for (const req of [{}, { offset: 8, limit: 8 }, { record: ["SO-1002"] }]) {
    assert.equal(await p.describeText(req), bare.call(JSON.stringify({ op: "describe", ...req })));
  }
  const d = /** @type {any} */ (await p.describe());
  assert.equal(d.snapshot, "s1");
  assert.equal(d.context.recordsTotal, 48);
  p.dispose();
});

test("the wasm source may be a path, a file URL, bytes or a compiled module", async () => {
  const bytes = readFileSync(WASM);
  const sources = [WASM, new URL("../../build/pinhole.wasm", import.meta.url), bytes, new WebAssembly.Module(bytes),
    new Response(bytes, { headers: { "content-type": "application/wasm" } })];
  for (const wasm of sources) {
    const p = await createPinhole({ wasm, manifest: MANIFEST, store: plainStore(ordersState()) });
    const d = /** @type {any} */ (await p.describe({ limit: 1 }));
    assert.equal(d.context.recordsTotal, 48);
    p.dispose();
  }
});

test("errors are error objects, never exceptions", async () => {
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()) });
  assert.deepEqual(Object.keys(/** @type {any} */ (await p.describe({ record: ["SO-1"], limit: 2 })).error).sort(), ["code", "message", "param"]);
  assert.equal(/** @type {any} */ (await p.describe({ limit: 500 })).error.code, "limit_exceeds_max");
  assert.equal(/** @type {any} */ (await p.describe(/** @type {any} */ ({ op: "load" }))).error.code, "invalid_request");
  assert.equal(/** @type {any} */ (await p.describe(/** @type {any} */ ([1]))).error.code, "invalid_request");
  p.dispose();
  assert.equal(/** @type {any} */ (await p.describe()).error.code, "not_loaded");
});

test("createPinhole rejects unknown options, bad stores and bad manifests", async () => {
  const store = plainStore(ordersState());
  await assert.rejects(createPinhole(/** @type {any} */ ({ wasm: WASM, manifest: MANIFEST, store, colour: 1 })), /unknown option "colour"/);
  await assert.rejects(createPinhole(/** @type {any} */ ({ wasm: WASM, manifest: MANIFEST, store: {} })), /getState/);
  await assert.rejects(createPinhole({ wasm: WASM, manifest: { pinhole: 1, bogus: true }, store }),
    (err) => err instanceof PinholeSetupError && /** @type {any} */ (err).error.code === "invalid_manifest");
});

test("createPinhole says what a newcomer's mistakes are: a manifest path, a handler that is not a function, a wasm path that is not there", async () => {
  const store = plainStore(ordersState());
  await assert.rejects(createPinhole({ wasm: WASM, manifest: "./src/pinhole.manifest.json", store }),
    (err) => err instanceof PinholeSetupError && /** @type {any} */ (err).error.code === "invalid_manifest" &&
      /not JSON \(.+\): pass the manifest object or its JSON text \(a file path is neither\)/.test(err.message));
  await assert.rejects(createPinhole(/** @type {any} */ ({ wasm: WASM, manifest: null, store })), /manifest is the manifest object or its JSON text/);
  await assert.rejects(createPinhole(/** @type {any} */ ({ wasm: WASM, manifest: MANIFEST, store, actions: { "order.ship": "ship" } })),
    /actions\["order\.ship"\] is not a function/);
  // A manifest text with an editor's byte order mark loads; a broken one says where.
  (await createPinhole({ wasm: WASM, manifest: "\uFEFF" + JSON.stringify(MANIFEST), store })).dispose();
  await assert.rejects(createPinhole({ wasm: WASM, manifest: '{"pinhole": 1,}', store }), /manifest text is not JSON \(.+\): pass the manifest/);
  await assert.rejects(createPinhole(/** @type {any} */ ({ wasm: WASM, manifest: MANIFEST, store, actions: [] })), /actions is an object/);
  await assert.rejects(createPinhole({ wasm: "./no/such/pinhole.wasm", manifest: MANIFEST, store }),
    /^Error: pinhole\.wasm: cannot read \.\/no\/such\/pinhole\.wasm \(ENOENT\); a relative path is read from the working directory/);
  await assert.rejects(createPinhole({ wasm: "/no/such/pinhole.wasm", manifest: MANIFEST, store }),
    /^Error: pinhole\.wasm: cannot read \/no\/such\/pinhole\.wasm \(ENOENT\); no such file: check the wasm option/);
  // Manifest text that is JSON still loads.
  const p = await createPinhole({ wasm: WASM, manifest: JSON.stringify(MANIFEST), store });
  p.dispose();
});

test("a capability named like an Object.prototype member without a handler answers unknown_capability; the prototype's function never runs", async () => {
  const manifest = structuredClone(MANIFEST);
  manifest.capabilities.find((/** @type {any} */ c) => c.name === "orders.export").name = "toString";
  const state = ordersState();
  state.session.role = "manager"; // export is for managers
  const p = await createPinhole({ wasm: WASM, manifest, store: plainStore(state), actions: { "order.ship": () => {} } });
  const d = /** @type {any} */ (await p.describe({ limit: 1 }));
  const r = /** @type {any} */ (await p.execute({ capability: "toString", snapshot: d.snapshot }));
  assert.equal(r.error?.code, "unknown_capability", JSON.stringify(r));
  p.dispose();
});

test("subscribe reports snapshot changes; dispose stops following the store", async () => {
  const store = plainStore(ordersState());
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store });
  /** @type {any[]} */
  const seen = [];
  const off = p.subscribe((e) => seen.push(e));
  store.setState((s) => setStatus(s, 1, "Shipped"));
  await settle();
  assert.deepEqual(seen, [{ snapshot: "s2", recordsTotal: 48 }]);
  store.setState((s) => ({ ...s, unrelated: 1 }));
  await settle();
  assert.equal(seen.length, 1, "an undeclared change makes no snapshot");
  off();
  store.setState((s) => setStatus(s, 2, "Shipped"));
  await settle();
  assert.equal(seen.length, 1);
  p.dispose();
  assert.equal(store.listeners.size, 0, "dispose unsubscribes from the store");
});

test("audit events from the module and the bridge reach onAudit without values", async () => {
  /** @type {any[]} */
  const events = [];
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()), onAudit: (e) => events.push(e) });
  await p.describe();
  const ops = events.filter((e) => e.source === "module").map((e) => e.op);
  assert.deepEqual(ops, ["load", "observe", "describe"]);
  const text = JSON.stringify(events);
  assert.ok(!text.includes("Lena Zhou") && !text.includes("SO-1001"), "no values in audit events");
  p.dispose();
});

test("a store that throws in getState never throws into the app", async () => {
  const store = plainStore(ordersState());
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store });
  const broken = { ...store, getState: () => { throw new Error("boom"); } };
  Object.assign(store, { getState: broken.getState });
  assert.doesNotThrow(() => store.setState((s) => s));
  await settle();
  assert.equal(/** @type {any} */ (await p.describe()).error.code, "invalid_state");
  p.dispose();
});

test("the first sync loads the manifest once and sends one full observe", async () => {
  const rec = recorder();
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()), trace: rec.trace });
  assert.equal(rec.ops("load").length, 1);
  assert.equal(rec.ops("observe").length, 1);
  assert.ok(rec.ops("observe")[0].state, "the first observe is a full one");
  p.dispose();
});

test("the module's warnings about the slice reach onAudit when they change, without values", async () => {
  const state = ordersState();
  const items = state.orders.items;
  state.orders.items = { first: items[0] }; // not an array
  const store = plainStore(state);
  /** @type {any[]} */
  const audit = [];
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, onAudit: (e) => audit.push(e) });
  const warned = () => audit.filter((e) => e.kind === "snapshot_warnings").map((e) => e.warnings);
  assert.deepEqual(warned(), [["/orders/items: expected an array; the collection is treated as empty"]]);

  store.setState((s) => ({ ...s, ui: { ...s.ui, selected: "SO-1002" } })); // the same warnings: not again
  await p.flush();
  assert.equal(warned().length, 1);

  store.setState((s) => ({ ...s, orders: { ...s.orders, items: [items[0], { ...items[1], number: items[0].number }] } }));
  await p.flush();
  assert.equal(warned().length, 2);
  assert.match(warned()[1].join(" "), /records share their id/);
  for (const w of warned().flat()) assert.match(w, /^(\/orders\/items: |\d+ )/, "a warning is a manifest place or a count, then fixed text");

  // More records sharing an id change only the counts: no new event.
  store.setState((s) => ({ ...s, orders: { ...s.orders, items: [items[0], { ...items[1], number: items[0].number }, { ...items[2], number: items[0].number }] } }));
  await p.flush();
  assert.equal(warned().length, 2, "a count that changes is not a new warning");

  store.setState((s) => ({ ...s, orders: { ...s.orders, items } }));
  await p.flush();
  assert.deepEqual(warned().slice(2), [[]], "the warnings clear: one empty event");
  p.dispose();
});

test("a store of another shape than the manifest declares is said in onAudit, not shown as an empty shop", async () => {
  /** @type {any[]} */
  const audit = [];
  const store = plainStore({ session: { tenant: "acme-shop" }, order: { items: [] } }); // "order", the manifest reads "orders"
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, onAudit: (e) => audit.push(e) });
  const warned = () => audit.filter((e) => e.kind === "snapshot_warnings").map((e) => e.warnings);
  assert.deepEqual(warned(), [["/orders/items: nothing there (absent, null, or inside a value that is not an object); the collection is treated as empty"]]);
  const d = /** @type {any} */ (await p.describe());
  assert.equal(d.context.recordsTotal, 0);
  store.setState(() => ordersState()); // the store fills: the warning clears
  await p.flush();
  assert.deepEqual(warned().slice(1), [[]]);
  p.dispose();
});

test("what every object or function inherits is no handler: a capability named constructor, or name on a function, has none", async () => {
  const manifest = structuredClone(MANIFEST);
  manifest.capabilities.find((/** @type {any} */ c) => c.name === "order.open").name = "constructor";
  manifest.capabilities.find((/** @type {any} */ c) => c.name === "orders.export").name = "name";
  class Actions { "order.ship"() {} }
  for (const actions of [new Actions(), Object.assign(function handlers() {}, { "order.ship"() {} })]) {
    /** @type {any[]} */
    const audit = [];
    const p = await createPinhole({ wasm: WASM, manifest, store: plainStore(ordersState()), actions, onAudit: (e) => audit.push(e) });
    const d = /** @type {any} */ (await p.describe({ limit: 1 }));
    const r = /** @type {any} */ (await p.execute({ capability: "constructor", record: "SO-1001", snapshot: d.snapshot }));
    assert.equal(r.error?.code, "unknown_capability", JSON.stringify(r));
    const ev = audit.find((e) => e.kind === "actions");
    assert.deepEqual([...ev.unhandled].sort(), ["constructor", "name", "order.charge", "order.refund", "orders.view"]);
    assert.deepEqual(ev.undeclared, []);
    p.dispose();
  }
});

test("handlers may be a class's methods (called on the instance) or a Proxy's; other members of actions are the app's", async () => {
  class Actions {
    constructor(/** @type {any} */ store) { this.store = store; this.calls = /** @type {any[]} */ ([]); }
    "order.ship"(/** @type {any} */ req) { this.calls.push(req.record); }
  }
  const store = plainStore(ordersState());
  const actions = new Actions(store);
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, actions: /** @type {any} */ (actions) });
  const d = /** @type {any} */ (await p.describe({ limit: 1 }));
  const r = /** @type {any} */ (await p.execute({ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot: d.snapshot }));
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(actions.calls, ["SO-1001"], "the method ran with the instance as this");
  p.dispose();

  /** @type {string[]} */
  const dispatched = [];
  const proxy = new Proxy({}, { get: (_, name) => (typeof name === "string" && name.startsWith("order.") ? (/** @type {any} */ req) => void dispatched.push(`${name} ${req.record}`) : undefined) });
  const q = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()), actions: proxy });
  const e = /** @type {any} */ (await q.describe({ limit: 1 }));
  const s = /** @type {any} */ (await q.execute({ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot: e.snapshot }));
  assert.equal(s.ok, true, JSON.stringify(s));
  assert.deepEqual(dispatched, ["order.ship SO-1001"]);
  q.dispose();
});
