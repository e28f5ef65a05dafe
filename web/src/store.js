// The console's store: a Zustand vanilla store whose state has exactly the
// shape of the bundled example (router, session, ui, orders), so
// testdata/orders/manifest.json applies unchanged. It deliberately holds data
// no agent should see (the session token, internal notes, phones, e-mails,
// card numbers); the manifest decides what may leave.
import { createStore } from "zustand/vanilla";
import { makeState } from "../../testdata/orders/generate.mjs";
import { Backend } from "./backend.js";

const MAX_TOASTS = 6;

/** createApp returns { store, backend, act } where act holds the app's own operations. */
export function createApp() {
  const backend = new Backend(48);
  const store = createStore(() => makeState(48));
  const set = (fn) => store.setState((s) => fn(s), true);

  /** toast pushes a notice (newest last; the oldest drop off past MAX_TOASTS). */
  const toast = (message, kind, origin) =>
    set((s) => ({ ...s, ui: { ...s.ui, toasts: [...s.ui.toasts, { message, kind, origin }].slice(-MAX_TOASTS) } }));

  /**
   * routed returns s with the router's query following the list: the
   * status filter and the page are what the URL of a real console would
   * carry, so the page's params and the list's state always agree.
   */
  const routed = (s) => ({
    ...s, router: { ...s.router, query: { ...s.router.query, status: s.orders.filter, page: String(s.orders.page) } },
  });

  /** refresh re-queries the backend with the current filter and sort. */
  const refresh = (patch = {}) =>
    set((s) => {
      const orders = { ...s.orders, ...patch };
      const items = backend.query(orders.filter, orders.sort);
      const pages = Math.max(1, Math.ceil(items.length / orders.pageSize));
      return routed({ ...s, orders: { ...orders, items, page: Math.min(orders.page, pages) } });
    });

  const act = {
    toast,
    dismissToast(i) {
      set((s) => ({ ...s, ui: { ...s.ui, toasts: s.ui.toasts.filter((_, j) => j !== i) } }));
    },
    setFilter(filter) {
      refresh({ filter, page: 1 });
    },
    setSort(sort) {
      refresh({ sort, page: 1 });
    },
    /** setView sets the filter, the sort or both in one store write. */
    setView({ filter, sort }) {
      refresh({ ...(filter !== undefined && { filter }), ...(sort !== undefined && { sort }), page: 1 });
    },
    setPage(page) {
      set((s) => routed({ ...s, orders: { ...s.orders, page } }));
    },
    setRole(role) {
      set((s) => ({ ...s, session: { ...s.session, role } }));
    },
    /** loadOrders switches the backend to n orders (48 or 10,000). */
    loadOrders(n) {
      backend.load(n);
      refresh({ page: 1 });
      toast(`Loaded ${n.toLocaleString("en")} orders from the server`, "info", "server");
    },
    /** open shows one order in the side panel (the order-detail region). */
    open(number) {
      if (!backend.find(number)) throw new Error(`Order ${number} does not exist`);
      set((s) => ({ ...s, ui: { ...s.ui, detailOpen: true, selected: number } }));
    },
    close() {
      set((s) => ({ ...s, ui: { ...s.ui, detailOpen: false, selected: null } }));
    },
    /** ship marks a ready order as shipped with carrier ("ups" or "dhl"). */
    ship(number, carrier) {
      if (carrier !== "ups" && carrier !== "dhl") {
        toast("Carrier must be one of ups, dhl", "error", "validation");
        throw new Error("Carrier must be one of ups, dhl");
      }
      const o = backend.find(number);
      if (!o) throw new Error(`Order ${number} does not exist`);
      if (o.status !== "Ready to ship") {
        toast(`Order ${number} is not ready to ship`, "error", "server");
        throw new Error("Only orders that are ready to ship can be shipped");
      }
      backend.update(number, (x) => ({ ...x, status: "Shipped", carrier, tracking: `1Z${number.slice(3)}00`, updated: new Date(Date.UTC(2026, 10, 29, 12)).toISOString() }));
      refresh();
      toast(`Order ${number} shipped with ${carrier.toUpperCase()}`, "success", "app");
    },
    /** refund refunds amount on the order in the side panel (managers only). */
    refund(amount) {
      const s = store.getState();
      const o = s.ui.detailOpen && backend.find(s.ui.selected);
      if (!o) throw new Error("No order is open");
      if (s.session.role !== "manager") {
        toast("Only managers can refund", "error", "server");
        throw new Error("Only managers can refund");
      }
      if (!(typeof amount === "number" && amount >= 0.01 && amount <= o.totals.grand)) {
        const msg = `Refund amount must be between 0.01 and ${o.totals.grand.toFixed(2)}`;
        toast(msg, "error", "validation");
        throw new Error(msg);
      }
      toast(`Refunded ${amount.toFixed(2)} EUR on ${o.number}`, "success", "server");
    },
    /**
     * charge charges amount to the order's card on file again. card is the
     * real number (the module resolved the agent's placeholder for this
     * order only); it is checked, never shown.
     */
    charge(number, card, amount) {
      const o = backend.find(number);
      if (!o) throw new Error(`Order ${number} does not exist`);
      if (card !== o.payment.card) throw new Error("That is not the card on file");
      if (!(typeof amount === "number" && amount >= 0.01 && amount <= 1000)) throw new Error("Amount must be between 0.01 and 1000");
      toast(`Charged ${amount.toFixed(2)} EUR to the card on file of ${number}`, "success", "server");
    },
    /** exportCsv exports the current list (managers only). */
    exportCsv() {
      const s = store.getState();
      if (s.session.role !== "manager") throw new Error("Only managers can export");
      toast(`Exported ${s.orders.items.length} orders as CSV`, "success", "app");
      return s.orders.items.length;
    },
  };
  return { store, backend, act };
}
