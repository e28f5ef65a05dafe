// The smallest Node app on the installed package: a store, a manifest, no
// `wasm` option (the package finds its own pinhole.wasm). It describes,
// ships an order through the capability and prints what the agent saw as
// one JSON line. The pack test runs it in an empty project after
// `npm install build/pinholectx-pinhole-0.1.0.tgz`.
import { readFileSync } from "node:fs";
import { createPinhole } from "@pinholectx/pinhole";

const manifest = JSON.parse(readFileSync(new URL("./pinhole.manifest.json", import.meta.url), "utf8"));

// Any object with getState() and subscribe(listener) is a store.
let state = {
  orders: [
    { id: "A-1", customer: "Ada Lovelace", email: "ada@example.com", status: "ready", total: 120, cardToken: "tok_live_4242" },
    { id: "A-2", customer: "Alan Turing", email: "alan@example.com", status: "waiting", total: 80, cardToken: "tok_live_1881" },
  ],
  session: { apiKey: "sk_live_secret" },
};
const listeners = new Set();
const store = {
  getState: () => state,
  subscribe(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
function ship(id) {
  state = { ...state, orders: state.orders.map((o) => (o.id === id ? { ...o, status: "shipped" } : o)) };
  for (const l of listeners) l();
}

const pinhole = await createPinhole({
  manifest,
  store,
  actions: { "order.ship": ({ record }) => ship(record) },
});
const context = await pinhole.describe();
const refused = await pinhole.execute({ capability: "order.ship", record: "A-2", input: { carrier: "ups" }, snapshot: context.snapshot });
const shipped = await pinhole.execute({ capability: "order.ship", record: "A-1", input: { carrier: "ups" }, snapshot: context.snapshot });
pinhole.dispose();
console.log(JSON.stringify({ context, refused, shipped }));
