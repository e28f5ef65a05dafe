// A page without modules or a framework: a hand-written store, the bridge
// with no `wasm` option (it fetches pinhole.wasm beside this script), and
// the agent panel: describe, ship an order through order.ship, read after.
import { createPinhole } from "@pinholectx/pinhole";
import manifest from "./pinhole.manifest.json";

let state = {
  orders: [
    { id: "A-1", customer: "Ada Lovelace", email: "ada@example.com", status: "ready", total: 120, cardToken: "tok_live_4242" },
    { id: "A-2", customer: "Alan Turing", email: "alan@example.com", status: "waiting", total: 80, cardToken: "tok_live_1881" },
    { id: "A-3", customer: "Grace Hopper", email: "grace@example.com", status: "ready", total: 64, cardToken: "tok_live_1906" },
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

const $ = (id) => document.getElementById(id);
function renderOrders() {
  $("orders").replaceChildren(...state.orders.map((o) => {
    const tr = document.createElement("tr");
    tr.dataset.id = o.id;
    for (const [cls, text] of [["", o.id], ["", o.customer], ["", o.email], ["status", o.status]]) {
      const td = document.createElement("td");
      td.className = cls;
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  }));
}
store.subscribe(renderOrders);
const show = (id, value) => { $(id).textContent = JSON.stringify(value, null, 2); };

// Start loading the module at once; the panel is wired when the page is parsed.
const started = createPinhole({ manifest, store, actions: { "order.ship": ({ record }) => ship(record) } });
document.addEventListener("DOMContentLoaded", () => {
  renderOrders();
  started.then((pinhole) => {
    let context = null;
    $("status").textContent = "Pinhole is ready.";
    $("agent").dataset.ready = "true";
    $("describe").disabled = false;
    $("describe").onclick = async () => {
      context = await pinhole.describe();
      show("context", context);
      $("ship").disabled = false;
    };
    $("ship").onclick = async () => {
      show("result", await pinhole.execute({ capability: "order.ship", record: "A-1", input: { carrier: "ups" }, snapshot: context.snapshot }));
    };
  }, (err) => {
    $("status").textContent = `Pinhole failed to start: ${err.message}`;
    $("status").setAttribute("role", "alert");
  });
});
