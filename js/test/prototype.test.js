// Inputs with prototype keys: an agent's input holding __proto__,
// constructor or prototype at any depth is refused as invalid_input (the
// param is the key's JSON Pointer, the message quotes nothing) before the
// module or the app's handler sees it, on every way in: execute, a WebMCP
// tool, the extension channel (test/extension.test.js).
import test from "node:test";
import assert from "node:assert/strict";
import { createPinhole } from "../src/index.js";
import { prototypeKey } from "../src/execute.js";
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
