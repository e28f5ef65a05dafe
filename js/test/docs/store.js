// The store the README's blocks import as "./store.js": a Zustand store of
// the bundled orders example (state.json is testdata/orders/state.json,
// copied beside this file by test/docs.test.js) with one action.
import { createStore } from "zustand/vanilla";
import { readFileSync } from "node:fs";

const initial = JSON.parse(readFileSync(new URL("./state.json", import.meta.url), "utf8"));

/** makeStore makes a store of its own, as a test wants. */
export const makeStore = () => createStore((set) => ({
  ...initial,
  /** ship marks an order shipped and says so in a toast. */
  ship: (number, carrier) =>
    set((s) => ({
      orders: {
        ...s.orders,
        items: s.orders.items.map((o) => (o.number === number ? { ...o, status: "Shipped", carrier } : o)),
      },
      ui: { ...s.ui, toasts: [...s.ui.toasts, { message: `Order ${number} shipped`, kind: "success", origin: "app" }] },
    })),
}));

/** store is the app's one store. */
export const store = makeStore();
