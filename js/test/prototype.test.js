// Inputs with prototype keys: an agent's input holding __proto__,
// constructor or prototype at any depth is refused as invalid_input (the
// param is the key's JSON Pointer, the message quotes nothing) before the
// module or the app's handler sees it, on every way in: execute, a WebMCP
// tool, the extension channel (test/extension.test.js). A prototype key
// inside the value behind a token is the app's own data: the answer names
// the slot only.
import test from "node:test";
import assert from "node:assert/strict";
import { createPinhole } from "../src/index.js";
import { prototypeKey, slotOf } from "../src/execute.js";
import { WASM, noteManifest, ordersState, plainStore, recorder } from "./helpers.js";

/** The exact attack: JSON.parse makes __proto__ an own key. */
const ATTACK = '{"__proto__":{"polluted":1}}';

/**
 * setup starts a bridge whose orders.note handler merges its input the way
 * apps do (Object.assign) and records what the merged object inherits.
 */
async function setup() {
  /** @type {any[]} */
  const merged = [];
  const rec = recorder();
  const p = await createPinhole({
    wasm: WASM, manifest: noteManifest(), store: plainStore(ordersState()), trace: rec.trace,
    actions: {
      "orders.note": (/** @type {any} */ req) => {
        const o = Object.assign({}, req.input);
        merged.push({ polluted: o.polluted, proto: Object.getPrototypeOf(o) === Object.prototype });
      },
    },
  });
  const d = /** @type {any} */ (await p.describe({ limit: 1 }));
  return { p, rec, merged, snapshot: d.snapshot };
}

test("the exact attack through execute is invalid_input before the module or the handler", async () => {
  const { p, rec, merged, snapshot } = await setup();
  const input = JSON.parse(ATTACK);
  const r = /** @type {any} */ (await p.execute({ capability: "orders.note", input, snapshot }));
  assert.deepEqual(r.error && { code: r.error.code, param: r.error.param }, { code: "invalid_input", param: "/__proto__" }, JSON.stringify(r));
  assert.ok(!r.error.message.includes("polluted"), "the message quotes no value");
  assert.deepEqual(merged, [], "the handler never ran");
  assert.deepEqual(rec.ops("prepare"), [], "the module never saw the input");
  assert.equal(/** @type {any} */ ({}).polluted, undefined);
  const ok = /** @type {any} */ (await p.execute({ capability: "orders.note", input: { text: "hi", extra: 1 }, snapshot }));
  assert.equal(ok.ok, true, JSON.stringify(ok));
  assert.deepEqual(merged, [{ polluted: undefined, proto: true }], "an ordinary input still reaches the handler");
  p.dispose();
});

test("prototype keys are found at any depth, in objects and arrays", async () => {
  const { p, merged, snapshot } = await setup();
  const cases = [
    ['{"text":"a","deep":{"constructor":{"prototype":{"x":1}}}}', "/deep/constructor"],
    ['{"items":[{"ok":1},{"prototype":1}]}', "/items/1/prototype"],
    ['{"a/b":{"c~d":[[{"__proto__":null}]]}}', "/a~1b/c~0d/0/0/__proto__"],
    ['{"constructor":"x"}', "/constructor"],
  ];
  for (const [text, param] of cases) {
    const r = /** @type {any} */ (await p.execute({ capability: "orders.note", input: JSON.parse(text), snapshot }));
    assert.equal(r.error?.code, "invalid_input", text);
    assert.equal(r.error.param, param, text);
  }
  assert.deepEqual(merged, []);
  p.dispose();
});

test("prototypeKey: plain values and cycles", () => {
  const cyclic = /** @type {any} */ ({ a: [] });
  cyclic.a.push(cyclic);
  assert.equal(prototypeKey(cyclic), null);
  cyclic.a.push({ __proto__: 1 }); // a literal sets the prototype: no own key, nothing sent
  assert.equal(prototypeKey(cyclic), null);
  assert.equal(prototypeKey("constructor"), null, "values are not keys");
  assert.equal(prototypeKey(["prototype"]), null);
  assert.equal(prototypeKey({ protoType: 1, Constructor: 2, __proto: 3 }), null);
  let deep = /** @type {any} */ ({ constructor: 1 });
  for (let i = 0; i < 100000; i++) deep = { a: deep };
  assert.equal(prototypeKey(deep)?.length, 100000 * 2 + "/constructor".length, "deep inputs do not overflow the stack");
});

test("the exact attack through a WebMCP tool is invalid_input", async () => {
  const { p, merged, snapshot } = await setup();
  /** @type {any[]} */
  const tools = [];
  const h = p.exposeWebMCP({ modelContext: { registerTool: (t) => void tools.push(t) } });
  await h.ready;
  const tool = tools.find((t) => t.name === "orders.note");
  assert.ok(tool, "the capability is a tool");
  const res = await tool.execute({ snapshot, input: JSON.parse(ATTACK) });
  assert.equal(res.isError, true);
  const r = JSON.parse(res.content[0].text);
  assert.deepEqual([r.error.code, r.error.param], ["invalid_input", "/__proto__"]);
  assert.deepEqual(merged, []);
  p.dispose();
});

/**
 * slotSetup starts a bridge with a placeholder field holding the customer's
 * address and order.shipTo, a record-scope capability with a slot for it.
 * SO-1001's address holds, as the app's own data, a constructor key and a
 * data-shaped key.
 */
async function slotSetup() {
  const manifest = noteManifest();
  manifest.collections[0].fields.addr = { from: "/customer/address", expose: "placeholder" };
  manifest.capabilities.push({
    name: "order.shipTo", description: "Ship to the customer's address", scope: "record", region: "orders",
    input: { type: "object", properties: { addr: { type: "object", "x-pinhole-token": { field: "addr" } } }, required: ["addr"] },
  });
  const state = ordersState();
  Object.assign(state.orders.items[0].customer.address,
    JSON.parse('{"ssn-123-45-6789":"x","constructor":{"prototype":{"zqhidden":1}}}'));
  /** @type {any[]} */
  const got = [];
  const p = await createPinhole({
    wasm: WASM, manifest, store: plainStore(state),
    actions: { "order.shipTo": (/** @type {any} */ req) => void got.push(req.input) },
  });
  const d = /** @type {any} */ (await p.describe({ record: ["SO-1001", "SO-1002"] }));
  /** @type {Record<string, any>} */
  const addr = {};
  for (const r of d.context.records) addr[r.id] = r.fields.addr;
  return { p, got, addr, snapshot: d.snapshot };
}

test("a prototype key inside the value behind a token is the app's data: only the slot is named", async () => {
  const { p, got, addr, snapshot } = await slotSetup();
  assert.ok(addr["SO-1001"]?.$placeholder?.startsWith("ph_"), JSON.stringify(addr));
  const r = /** @type {any} */ (await p.execute({ capability: "order.shipTo", record: "SO-1001", input: { addr: addr["SO-1001"] }, snapshot }));
  assert.deepEqual(r.error && [r.error.code, r.error.param], ["invalid_input", "/addr"], JSON.stringify(r));
  for (const leak of ["constructor", "prototype", "zqhidden", "ssn-", "Osaka"]) {
    assert.ok(!JSON.stringify(r).includes(leak), `the answer names ${leak} of the hidden value: ${JSON.stringify(r)}`);
  }
  assert.deepEqual(got, [], "the handler never ran");
  // Another order's address, with no such key, reaches the handler whole.
  const ok = /** @type {any} */ (await p.execute({ capability: "order.shipTo", record: "SO-1002", input: { addr: addr["SO-1002"] }, snapshot }));
  assert.equal(ok.ok, true, JSON.stringify(ok));
  assert.equal(got.length, 1);
  assert.equal(typeof got[0].addr.city, "string");
  // The agent's own prototype keys are still named where it wrote them.
  const own = /** @type {any} */ (await p.execute({ capability: "order.shipTo", record: "SO-1002", input: JSON.parse('{"addr":{"constructor":1}}'), snapshot }));
  assert.deepEqual([own.error?.code, own.error?.param], ["invalid_input", "/addr/constructor"]);
  p.dispose();
});

test("slotOf names the slot a path into the prepared input runs through", () => {
  const input = { a: { b: { $placeholder: "ph_x" } }, c: "al_y", list: [{ d: { $placeholder: "ph_z" } }] };
  assert.equal(slotOf(input, ["a", "b", "k", "constructor"]), "/a/b");
  assert.equal(slotOf(input, ["a", "b", "$placeholder", "constructor"]), "/a/b", "a data key named $placeholder is not followed");
  assert.equal(slotOf(input, ["c", "constructor"]), "/c");
  assert.equal(slotOf(input, ["list", "0", "d", "x/y", "__proto__"]), "/list/0/d");
});
