// What the agent hands describe and execute is read once, as plain JSON
// data within a budget: a request that controls its own serialisation
// (toJSON), lies through a Proxy or a getter, cannot be serialised (BigInt,
// a cycle), or holds far more than it weighs (a sparse array, shared
// halves) is answered with an error object, at once, and the module and
// the handlers see only what the checks saw.
import test from "node:test";
import assert from "node:assert/strict";
import { createPinhole } from "../src/index.js";
import { WASM, MANIFEST, noteManifest, ordersState, plainStore, recorder } from "./helpers.js";

const CARD = "4111 1111 1111 1000"; // SO-1001's card, declared placeholder

/** @param {any} r */
const code = (r) => r?.error?.code;

test("a describe request cannot change the op: toJSON and a Proxy are refused, nothing resolved leaks", async () => {
  const rec = recorder();
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()), host: "main", trace: rec.trace });
  const d = /** @type {any} */ (await p.describe({ record: ["SO-1001"] }));
  const ph = d.context.records[0].fields.card;
  const prepare = { op: "prepare", capability: "order.charge", record: "SO-1001", input: { card: ph, amount: 1 }, snapshot: d.snapshot };
  const viaToJSON = /** @type {any} */ (await p.describe(/** @type {any} */ ({ toJSON: () => prepare })));
  const viaProxy = /** @type {any} */ (await p.describe(/** @type {any} */ (new Proxy({}, {
    ownKeys: () => ["op"], getOwnPropertyDescriptor: () => ({ value: "load", enumerable: true, configurable: true }),
  }))));
  for (const r of [viaToJSON, viaProxy]) {
    assert.equal(code(r), "invalid_request", JSON.stringify(r).slice(0, 200));
    assert.ok(!JSON.stringify(r).includes(CARD));
  }
  assert.deepEqual(rec.ops("prepare"), [], "no prepare reached the module");
  assert.equal(rec.ops("load").length, 1, "only the bridge's own load");
  p.dispose();
});

test("execute reads the request once: a capability getter cannot run another capability's handler", async () => {
  /** @type {string[]} */
  const ran = [];
  const p = await createPinhole({
    wasm: WASM, manifest: noteManifest(), store: plainStore(ordersState()), host: "main",
    actions: { "orders.note": () => { ran.push("orders.note"); }, "order.charge": () => { ran.push("order.charge"); } },
  });
  const d = /** @type {any} */ (await p.describe({ limit: 1 }));
  let reads = 0;
  const req = {
    get capability() { return reads++ < 2 ? "orders.note" : "order.charge"; },
    input: { text: "x" }, snapshot: d.snapshot,
  };
  const r = /** @type {any} */ (await p.execute(/** @type {any} */ (req)));
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(ran, ["orders.note"], "the handler of the capability the module prepared, and only it");
  p.dispose();
});

test("requests that are not JSON data, or far heavier than their size, get an error object at once", async () => {
  const p = await createPinhole({ wasm: WASM, manifest: noteManifest(), store: plainStore(ordersState()), host: "main", actions: { "orders.note": () => {} } });
  const d = /** @type {any} */ (await p.describe({ limit: 1 }));
  /** @type {any} */
  const cycle = { text: "x" };
  cycle.self = cycle;
  const sparse = [];
  sparse[2 ** 32 - 2] = 1;
  /** @type {any} */
  let shared = ["leaf"];
  for (let i = 0; i < 40; i++) shared = [shared, shared];
  const started = performance.now();
  for (const [what, call] of /** @type {[string, () => Promise<any>][]} */ ([
    ["describe with a BigInt", () => p.describe(/** @type {any} */ ({ offset: 1n }))],
    ["describeText with a BigInt", async () => JSON.parse(await p.describeText(/** @type {any} */ ({ offset: 1n })))],
    ["execute with a cycle", () => p.execute(/** @type {any} */ ({ capability: "orders.note", input: cycle, snapshot: d.snapshot }))],
    ["execute with a sparse array", () => p.execute(/** @type {any} */ ({ capability: "orders.note", input: { text: "x", list: sparse }, snapshot: d.snapshot }))],
    ["execute with shared halves, 40 levels", () => p.execute(/** @type {any} */ ({ capability: "orders.note", input: { text: "x", list: shared }, snapshot: d.snapshot }))],
  ])) {
    const r = await call();
    assert.equal(code(r), "invalid_request", `${what}: ${JSON.stringify(r)}`);
  }
  assert.ok(performance.now() - started < 5000, "answered at once, not after serialising billions of values");
  assert.equal(/** @type {any} */ (await p.execute({ capability: "orders.note", input: { text: "still fine" }, snapshot: d.snapshot })).ok, true);
  p.dispose();
});
