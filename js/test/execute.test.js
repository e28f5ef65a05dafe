// execute: prepare in the module, the app's handler with the resolved
// request, a store sync, then the after observation since the request's
// snapshot (docs/protocol.md#prepare).
import test from "node:test";
import assert from "node:assert/strict";
import { createPinhole } from "../src/index.js";
import { WASM, MANIFEST, ordersState, plainStore, recorder, setStatus } from "./helpers.js";

/** @param {any} [actions] @param {any} [opts] */
async function setup(actions, opts = {}) {
  const store = plainStore(ordersState());
  /** @type {any[]} */
  const calls = [];
  const rec = recorder();
  const p = await createPinhole({
    wasm: WASM, manifest: MANIFEST, store, trace: rec.trace,
    actions: actions ?? {
      "order.ship": (/** @type {any} */ req) => {
        calls.push(req);
        const i = store.getState().orders.items.findIndex((/** @type {any} */ o) => o.number === req.record);
        store.setState((s) => setStatus(s, i, "Shipped"));
      },
    },
    ...opts,
  });
  const d = /** @type {any} */ (await p.describe());
  return { p, store, calls, rec, snapshot: d.snapshot, d };
}

test("execute runs the handler and answers with the after observation", async () => {
  const { p, calls, snapshot } = await setup();
  const r = /** @type {any} */ (await p.execute({ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot }));
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(calls, [{ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot }]);
  assert.equal(r.snapshot, "s2");
  assert.ok(r.after, "the answer carries the module's after observation");
  assert.equal(r.after.from, snapshot);
  assert.equal(r.after.to, "s2");
  assert.deepEqual(r.after.records.changed.map((/** @type {any} */ c) => [c.id, c.fields.status]), [["SO-1001", "Shipped"]]);
  assert.ok(r.after.capabilities.unavailable.some((/** @type {any} */ u) => u.capability === "order.ship" && u.record === "SO-1001"));
  p.dispose();
});

test("an async handler is awaited before the after observation", async () => {
  /** @type {any} */
  let store;
  const { p, snapshot, store: s } = await setup({
    "order.ship": async (/** @type {any} */ req) => {
      await new Promise((r) => setTimeout(r, 5));
      const i = store.getState().orders.items.findIndex((/** @type {any} */ o) => o.number === req.record);
      store.setState((/** @type {any} */ st) => setStatus(st, i, "Shipped"));
    },
  });
  store = s;
  const r = /** @type {any} */ (await p.execute({ capability: "order.ship", record: "SO-1005", input: { carrier: "dhl" }, snapshot }));
  assert.ok(r.after, "the answer carries the module's after observation");
  assert.equal(r.after.records.changedTotal, 1);
  p.dispose();
});

test("placeholders reach the handler resolved, never the agent, and only in their slot", async () => {
  // The orders example's order.charge declares its card property a token
  // slot (x-pinhole-token): the card placeholder of the acted-on order.
  /** @type {any[]} */
  const calls = [];
  const store = plainStore(ordersState());
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, actions: { "order.charge": (/** @type {any} */ r) => void calls.push(r) } });
  const d = /** @type {any} */ (await p.describe({ record: ["SO-1001", "SO-1002"] }));
  const [card, other] = d.context.records.map((/** @type {any} */ r) => r.fields.card);
  assert.match(card.$placeholder, /^ph_/);
  assert.ok(!JSON.stringify(d).includes("4111 1111 1111 1000"));
  const r = /** @type {any} */ (await p.execute({ capability: "order.charge", record: "SO-1001", input: { card, amount: 5 }, snapshot: d.snapshot }));
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(calls[0].input, { card: "4111 1111 1111 1000", amount: 5 });
  assert.ok(!JSON.stringify(r).includes("4111 1111 1111 1000"), "the answer to the agent holds no resolved value");
  // Another order's card, or a token outside the slot, never reaches a handler.
  for (const input of [{ card: other, amount: 5 }, { card: d.context.records[0].fields.phone, amount: 5 }]) {
    const bad = /** @type {any} */ (await p.execute({ capability: "order.charge", record: "SO-1001", input, snapshot: d.snapshot }));
    assert.equal(bad.error?.code, "invalid_input", JSON.stringify(bad));
  }
  assert.equal(calls.length, 1);
  p.dispose();
});

test("the module's refusals come back as error objects and the handler is not called", async () => {
  const { p, calls, snapshot } = await setup();
  const cases = [
    [{ capability: "order.ship", record: "SO-1002", input: { carrier: "ups" }, snapshot }, "capability_unavailable"],
    [{ capability: "order.fly", record: "SO-1001", input: {}, snapshot }, "unknown_capability"],
    [{ capability: "order.ship", record: "SO-1001", input: { carrier: "pigeon" }, snapshot }, "invalid_input"],
    [{ capability: "order.ship", record: "SO-9999", input: { carrier: "ups" }, snapshot }, "unknown_record"],
    // No snapshot: no decision to check for staleness, and no after.
    [{ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" } }, "invalid_request", "snapshot"],
    [{ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot: "" }, "invalid_request", "snapshot"],
    [{ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot: 1 }, "invalid_request", "snapshot"],
  ];
  for (const [req, code, param] of cases) {
    const r = /** @type {any} */ (await p.execute(/** @type {any} */ (req)));
    assert.equal(r.error?.code, code, JSON.stringify(r));
    if (param) assert.equal(r.error.param, param);
  }
  assert.equal(calls.length, 0);
  p.dispose();
});

test("a capability without a handler is unknown_capability; a throwing handler is action_failed", async () => {
  /** @type {any[]} */
  const seen = [];
  /** @type {any[]} */
  const audit = [];
  const { p, snapshot } = await setup({ "order.ship": () => { throw new Error("card 4111 declined"); } },
    { onActionError: (/** @type {any} */ e, /** @type {string} */ c) => seen.push([e.message, c]), onAudit: (/** @type {any} */ e) => audit.push(e) });
  const r = /** @type {any} */ (await p.execute({ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot }));
  assert.equal(r.error.code, "action_failed");
  assert.ok(!r.error.message.includes("4111"));
  assert.deepEqual(seen, [["card 4111 declined", "order.ship"]]);
  assert.ok(!JSON.stringify(audit).includes("4111"));
  const r2 = /** @type {any} */ (await p.execute({ capability: "order.open", record: "SO-1001", snapshot }));
  assert.equal(r2.error.code, "unknown_capability");
  p.dispose();
});
