// Trap recovery: when the module traps, the bridge starts a new instance,
// loads the manifest again with the same key, restores the state, reports
// the incident, and answers the call. The traps here are genuine: the
// instance's memory is overwritten, and the guest itself fails (the Go
// runtime exits, or the engine stops it).
import test from "node:test";
import assert from "node:assert/strict";
import { createPinhole, internals } from "../src/index.js";
import { WASM, MANIFEST, ordersState, plainStore, recorder, settle, setStatus } from "./helpers.js";

/** @param {any} p @param {"exit" | "stack"} how */
function wreck(p, how) {
  const mem = new Uint8Array(p[internals].instance.exports.memory.buffer);
  if (how === "exit") mem.fill(0xff, 0, 1 << 20);
  else mem.fill(0);
}

async function setup() {
  const store = plainStore(ordersState());
  /** @type {any[]} */
  const audit = [];
  const rec = recorder();
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, onAudit: (e) => audit.push(e), trace: rec.trace });
  return { p, store, audit, rec };
}

for (const how of /** @type {const} */ (["exit", "stack"])) {
  test(`a trap during describe (${how}) is recovered and the call answered`, async () => {
    const { p, store, audit } = await setup();
    const before = /** @type {any} */ (await p.describe({ record: ["SO-1001"] }));
    store.setState((s) => setStatus(s, 1, "Shipped"));
    await settle();
    const old = p[internals].instance;
    wreck(p, how);
    const d = /** @type {any} */ (await p.describe({ record: ["SO-1001", "SO-1002"] }));
    assert.notEqual(p[internals].instance, old, "a new instance");
    assert.ok(!d.error, JSON.stringify(d.error));
    assert.equal(d.context.records[1].fields.status, "Shipped", "no store data was lost");
    assert.equal(d.snapshot, "s3", "snapshot ids keep increasing across the restart");
    assert.deepEqual(d.context.records[0].fields.phone, before.context.records[0].fields.phone, "aliases are stable (same key)");
    assert.deepEqual(audit.filter((e) => e.kind === "recovered").map((e) => [e.op, e.restoredFrom]), [["describe", "store"]]);
    p.dispose();
  });
}

test("a trap during sync is recovered with the store's new state", async () => {
  const { p, store, audit } = await setup();
  wreck(p, "exit");
  store.setState((s) => setStatus(s, 2, "Delivered"));
  await settle();
  assert.ok(audit.some((e) => e.kind === "recovered" && e.op === "observe"));
  const d = /** @type {any} */ (await p.describe({ record: ["SO-1003"] }));
  assert.equal(d.context.records[0].fields.status, "Delivered");
  p.dispose();
});

test("when the store cannot be read, the last good state is restored", async () => {
  const { p, store, audit } = await setup();
  wreck(p, "exit");
  store.getState = () => { throw new Error("store is gone"); };
  const d = /** @type {any} */ (await p.describe({ limit: 1 }));
  assert.equal(d.context.recordsTotal, 48);
  assert.ok(audit.some((e) => e.kind === "recovered" && e.restoredFrom === "last_good"));
  p.dispose();
});

test("an agent's snapshot from before the restart is stale", async () => {
  const { p, store } = await setup();
  const { snapshot } = /** @type {any} */ (await p.describe());
  wreck(p, "exit");
  await p.describe();
  const r = /** @type {any} */ (await p.execute({ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot }));
  assert.equal(r.error.code, "stale_snapshot");
  store.setState((s) => s);
  p.dispose();
});

test("after a restart every answer carries the ids agents see, text and parsed alike", async () => {
  const store = plainStore(ordersState());
  const p = await createPinhole({
    wasm: WASM, manifest: MANIFEST, store,
    actions: {
      "order.ship": (/** @type {any} */ req) => {
        const i = store.getState().orders.items.findIndex((/** @type {any} */ o) => o.number === req.record);
        store.setState((s) => setStatus(s, i, "Shipped"));
      },
    },
  });
  store.setState((s) => setStatus(s, 1, "Shipped"));
  await settle();
  wreck(p, "exit");
  const d = /** @type {any} */ (await p.describe({ limit: 1 }));
  assert.equal(d.snapshot, "s3");
  const text = await p.describeText({ limit: 1 });
  assert.deepEqual(JSON.parse(text), d, "describeText is describe, as text");
  const r = /** @type {any} */ (await p.execute({ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot: d.snapshot }));
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual([r.after.from, r.after.to, r.snapshot], ["s3", "s4", "s4"]);
  p.dispose();
});

/**
 * trapping starts a bridge whose next request of op `armed.op` traps: the
 * instance's memory is overwritten just before the request goes in.
 */
async function trapping() {
  const store = plainStore(ordersState());
  /** @type {any[]} */
  const audit = [];
  const armed = { op: "" };
  /** @type {any[]} */
  const ran = [];
  /** @type {any} */
  let p;
  p = await createPinhole({
    wasm: WASM, manifest: MANIFEST, store, onAudit: (e) => audit.push(e),
    trace: (dir, text) => {
      if (dir === "in" && armed.op && text.startsWith(`{"op":"${armed.op}"`)) {
        armed.op = "";
        wreck(p, "exit");
      }
    },
    actions: {
      "order.ship": (/** @type {any} */ req) => {
        ran.push(req);
        const i = store.getState().orders.items.findIndex((/** @type {any} */ o) => o.number === req.record);
        store.setState((s) => setStatus(s, i, "Shipped"));
      },
    },
  });
  return { p, store, audit, armed, ran };
}

/** @param {any} s @param {number} i @param {number} grand order i with a new grand total */
const setTotal = (s, i, grand) => {
  const items = s.orders.items.slice();
  items[i] = { ...items[i], totals: { ...items[i].totals, grand } };
  return { ...s, orders: { ...s.orders, items } };
};

test("a prepare that traps is not retried against the new instance's numbering: the agent's old snapshot is stale", async () => {
  const { p, store, audit, armed, ran } = await trapping();
  const d = /** @type {any} */ (await p.describe({ record: ["SO-1001"] }));
  store.setState((s) => setTotal(s, 0, 1));
  await settle();
  const ship = { capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot: d.snapshot };
  const first = /** @type {any} */ (await p.execute(ship));
  assert.equal(first.error?.code, "stale_snapshot", "without a trap the module refuses the changed record");
  armed.op = "prepare";
  const r = /** @type {any} */ (await p.execute(ship));
  assert.equal(armed.op, "", "the prepare trapped");
  assert.deepEqual(audit.filter((e) => e.kind === "recovered").map((e) => e.op), ["prepare"]);
  assert.deepEqual(r, { error: { code: "stale_snapshot", message: "the snapshot predates a restart of the module; describe again", param: "snapshot" } });
  assert.deepEqual(ran, [], "the handler never ran against data the agent did not see");
  const now = /** @type {any} */ (await p.describe({ record: ["SO-1001"] }));
  assert.ok(Number(now.snapshot.slice(1)) > Number(d.snapshot.slice(1)), `${d.snapshot} → ${now.snapshot}`);
  const ok = /** @type {any} */ (await p.execute({ ...ship, snapshot: now.snapshot }));
  assert.equal(ok.ok, true, JSON.stringify(ok));
  assert.equal(ran.length, 1);
  p.dispose();
});

test("an after that traps does not report against the new instance's base: the answer has no after", async () => {
  const { p, audit, armed, ran } = await trapping();
  const d = /** @type {any} */ (await p.describe({ record: ["SO-1001"] }));
  armed.op = "after";
  const r = /** @type {any} */ (await p.execute({ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot: d.snapshot }));
  assert.equal(armed.op, "", "the after trapped");
  assert.deepEqual(audit.filter((e) => e.kind === "recovered").map((e) => e.op), ["after"]);
  assert.equal(ran.length, 1, "the handler ran once");
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(r.after, undefined, `no after from a base the new instance never held: ${JSON.stringify(r.after)}`);
  const now = /** @type {any} */ (await p.describe({ record: ["SO-1001"] }));
  assert.equal(r.snapshot, now.snapshot, "the answer names the snapshot the new instance holds");
  assert.equal(now.context.records[0].fields.status, "Shipped");
  p.dispose();
});

test("a describe that traps is retried as it is", async () => {
  const { p, armed, audit } = await trapping();
  armed.op = "describe";
  const d = /** @type {any} */ (await p.describe({ record: ["SO-1001"] }));
  assert.equal(armed.op, "");
  assert.deepEqual(audit.filter((e) => e.kind === "recovered").map((e) => e.op), ["describe"]);
  assert.equal(d.context.records[0].id, "SO-1001", JSON.stringify(d));
  p.dispose();
});
