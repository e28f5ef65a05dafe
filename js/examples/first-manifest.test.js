// The manifest of docs/first-manifest.md, loaded through the bridge as the
// tutorial's last step does: the agent sees the orders, ships one, and gets
// the change in `after`; the order it cannot ship answers with the reason.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { legacy_createStore } from "redux";
import { createPinhole } from "@pinholectx/pinhole";
import { fromRedux } from "@pinholectx/pinhole/redux";

// The tutorial's manifest is the JSON block it marks as manifest.json.
const doc = readFileSync(new URL("../../docs/first-manifest.md", import.meta.url), "utf8");
const block = /<!-- test: file manifest\.json -->\n```json\n([\s\S]*?)\n```/.exec(doc);
assert.ok(block, "docs/first-manifest.md marks its manifest");
const manifest = JSON.parse(block[1]);

const initial = JSON.parse(readFileSync(new URL("../../testdata/orders/state.json", import.meta.url), "utf8"));
function reducer(state = initial, action) {
  if (action.type === "orders/ship") {
    const items = state.orders.items.map((o) => (o.number === action.id ? { ...o, status: "Shipped", carrier: action.carrier } : o));
    return { ...state, orders: { ...state.orders, items } };
  }
  return state;
}
const wasm = new URL("../../build/pinhole.wasm", import.meta.url);

test("the tutorial's manifest: the agent sees, ships, and is told why not", async () => {
  const store = legacy_createStore(reducer);
  const pinhole = await createPinhole({
    wasm,
    manifest,
    store: fromRedux(store),
    actions: {
      "order.ship": ({ record, input }) => store.dispatch({ type: "orders/ship", id: record, carrier: input.carrier }),
    },
  });
  const seen = await pinhole.describe();
  assert.equal(seen.context.recordIdsTotal, 48);
  const first = seen.context.records[0];
  assert.deepEqual(Object.keys(first.fields), ["customer", "email", "phone", "status", "total", "note"]);
  assert.equal(first.fields.email, "l***@example.com");
  assert.match(first.fields.phone, /^al_/);
  const text = JSON.stringify(seen);
  for (const secret of ["eyJhbGciOi", "4111 1111", "Harbour Road", "Internal:"]) {
    assert.ok(!text.includes(secret), `the context carries ${secret}`);
  }

  const { ok, after } = await pinhole.execute({ capability: "order.ship", record: "SO-1001",
                                                 input: { carrier: "ups" }, snapshot: seen.snapshot });
  assert.equal(ok, true);
  const changed = after.records.changed.find((r) => r.id === "SO-1001");
  assert.equal(changed?.fields.status, "Shipped");

  const refused = await pinhole.execute({ capability: "order.ship", record: "SO-1002", input: { carrier: "ups" },
                                         snapshot: seen.snapshot });
  assert.equal(refused.error?.code, "capability_unavailable");
  assert.equal(refused.error?.message.includes("ready to ship"), true);
  pinhole.dispose();
});
