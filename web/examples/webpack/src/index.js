// A webpack 5 app with a Redux Toolkit store and Pinhole, in plain
// JavaScript: the bridge follows the store, the agent panel describes the
// context and ships an order through the order.ship capability, whose
// handler dispatches the app's own action.
import { configureStore, createSlice } from "@reduxjs/toolkit";
import { createPinhole } from "@pinholectx/pinhole";
import { fromRedux } from "@pinholectx/pinhole/redux";
import manifest from "./pinhole.manifest.json";

const orders = createSlice({
  name: "orders",
  initialState: [
    { id: "A-1", customer: "Ada Lovelace", email: "ada@example.com", status: "ready", total: 120, cardToken: "tok_live_4242" },
    { id: "A-2", customer: "Alan Turing", email: "alan@example.com", status: "waiting", total: 80, cardToken: "tok_live_1881" },
    { id: "A-3", customer: "Grace Hopper", email: "grace@example.com", status: "ready", total: 64, cardToken: "tok_live_1906" },
  ],
  reducers: {
    ship(state, action) {
      const order = state.find((o) => o.id === action.payload);
      if (order) order.status = "shipped";
    },
  },
});
const session = createSlice({ name: "session", initialState: { apiKey: "sk_live_secret" }, reducers: {} });
const store = configureStore({ reducer: { orders: orders.reducer, session: session.reducer } });

const $ = (id) => document.getElementById(id);

function renderOrders() {
  const table = $("orders");
  table.replaceChildren(...store.getState().orders.map((o) => {
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
renderOrders();

const show = (id, value) => { $(id).textContent = JSON.stringify(value, null, 2); };

createPinhole({
  manifest,
  store: fromRedux(store),
  actions: { "order.ship": ({ record }) => store.dispatch(orders.actions.ship(record)) },
}).then((pinhole) => {
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
