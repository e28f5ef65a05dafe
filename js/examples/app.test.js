// An app's own test: load pinhole from the package in Node, drive the app's
// real store, and assert what its agent will see. Copy this into your app's
// test suite (run with `node --test`), pointing at your manifest and store.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { legacy_createStore } from "redux";
import { createPinhole } from "@pinholectx/pinhole";
import { fromRedux } from "@pinholectx/pinhole/redux";

// The app: a Redux store of orders (here the bundled example data).
const initial = JSON.parse(readFileSync(new URL("../../testdata/orders/state.json", import.meta.url), "utf8"));
const manifest = JSON.parse(readFileSync(new URL("../../testdata/orders/manifest.json", import.meta.url), "utf8"));
function reducer(state = initial, action) {
  if (action.type === "orders/ship") {
    const items = state.orders.items.map((o) => (o.number === action.id ? { ...o, status: "Shipped" } : o));
    return { ...state, orders: { ...state.orders, items } };
  }
  return state;
}

// Installed from npm, the package ships pinhole.wasm and `wasm` may be left
// out; inside this repository the module comes from `make wasm`.
const wasm = new URL("../../build/pinhole.wasm", import.meta.url);

test("the agent sees the open orders and nothing secret", async () => {
  const store = legacy_createStore(reducer);
  const pinhole = await createPinhole({ wasm, manifest, store: fromRedux(store) });
  const seen = await pinhole.describe();

  assert.equal(seen.context.recordsTotal, 48);
  assert.equal(seen.context.records.length, 8, "the first window of records");
  assert.deepEqual(seen.capabilities.map((c) => c.name), ["order.ship", "order.open", "orders.export", "order.charge", "orders.view"]);
  const first = seen.context.records[0];
  assert.equal(first.fields.email, "l***@example.com", "e-mail is masked");
  assert.match(first.fields.phone, /^al_/, "phone is an alias");
  const text = JSON.stringify(seen);
  assert.ok(!text.includes("eyJhbGciOi"), "the session token never reaches the agent");
  assert.ok(!text.includes("4111 1111"), "card numbers never reach the agent");
  pinhole.dispose();
});

test("after the app ships an order, the agent sees it shipped", async () => {
  const store = legacy_createStore(reducer);
  const pinhole = await createPinhole({ wasm, manifest, store: fromRedux(store) });
  store.dispatch({ type: "orders/ship", id: "SO-1002" });
  const seen = await pinhole.describe({ record: ["SO-1002"] });
  assert.equal(seen.context.records[0].fields.status, "Shipped");
  pinhole.dispose();
});
