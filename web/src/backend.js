// The fictional shop's "server": it owns every order (the 48 of the bundled
// example, or 10,000 on request) and answers list queries the way a REST
// backend would. The store only ever holds the current query's result.
import { makeState } from "../../testdata/orders/generate.mjs";

/** Sort orders the console offers; "-created" is the server's own order. */
export const SORTS = {
  "-created": { label: "Server order", cmp: null },
  "customer": { label: "Customer A–Z", cmp: (a, b) => (a.customer.name < b.customer.name ? -1 : a.customer.name > b.customer.name ? 1 : 0) },
  "-total": { label: "Total, highest first", cmp: (a, b) => b.totals.grand - a.totals.grand },
};

/** Filters the console offers (the order statuses, and "all"). */
export const FILTERS = ["all", "Ready to ship", "Awaiting payment", "Shipped", "On hold", "Delivered"];

/** Backend holds the orders table. */
export class Backend {
  /** @param {number} n how many orders to generate */
  constructor(n = 48) {
    this.load(n);
  }

  /** load replaces the table with n generated orders. */
  load(n) {
    /** @type {any[]} */
    this.orders = makeState(n).orders.items;
  }

  /** query returns the orders matching filter, in sort order (a new array). */
  query(filter = "all", sort = "-created") {
    const rows = filter === "all" ? this.orders.slice() : this.orders.filter((o) => o.status === filter);
    const cmp = SORTS[sort]?.cmp;
    return cmp ? rows.sort(cmp) : rows;
  }

  /** find returns the order with this number, or undefined. */
  find(number) {
    return this.orders.find((o) => o.number === number);
  }

  /**
   * update replaces one order with patch applied (immutably) and returns the new order.
   * @param {string} number
   * @param {(o: any) => any} patch
   */
  update(number, patch) {
    const i = this.orders.findIndex((o) => o.number === number);
    if (i < 0) throw new Error(`no order ${number}`);
    this.orders[i] = patch(this.orders[i]);
    return this.orders[i];
  }
}
