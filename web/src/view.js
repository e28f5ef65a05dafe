// The orders console's view: plain DOM rendering of the store, redrawn on
// every change. Like many real admin screens it puts more into the DOM than
// it shows: customer ids and e-mails in attributes, the session token in a
// hidden form field, the full card number and the internal note in the side
// panel. That is what a DOM or accessibility snapshot would hand an agent.
import { FILTERS, SORTS } from "./backend.js";

/** esc escapes text for HTML. */
export const esc = (v) => String(v ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const money = (n) => `€${n.toFixed(2)}`;

/** nextPaint resolves after the browser has had a chance to paint. */
const nextPaint = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));

/**
 * focusKey names the element that has focus inside root so that the same
 * control can take it back after a redraw ("" when there is none to keep).
 * @param {HTMLElement} root
 */
function focusKey(root) {
  const el = document.activeElement;
  if (!(el instanceof HTMLElement) || !root.contains(el)) return "";
  if (el.id) return `#${CSS.escape(el.id)}`;
  for (const a of ["name", "data-open", "data-ship", "data-page", "data-dismiss"]) {
    const v = el.getAttribute(a);
    if (v !== null) return `${el.tagName.toLowerCase()}[${a}="${CSS.escape(v)}"]`;
  }
  return "";
}

/**
 * mountConsole renders the console into root and keeps it in sync with the store.
 * @param {HTMLElement} root
 * @param {{store: any, backend: any, act: any}} app
 * @returns {{switchOrders: (n: number) => Promise<void>}}
 */
export function mountConsole(root, { store, backend, act }) {
  let formError = "";
  let formAmount = "";
  let formFor = null;
  /** The text of the busy indicator while long work runs ("" when idle). */
  let busy = "";
  /** The order whose side panel is shown, to move focus when it opens or closes. */
  let shownDetail = null;
  /** The element focused before the side panel opened, given focus back on close. */
  let opener = "";
  const render = () => {
    const s = store.getState();
    if (s.ui.selected !== formFor) { formError = ""; formAmount = ""; formFor = s.ui.selected; }
    const keep = focusKey(root);
    const at = document.activeElement;
    const focusHere = !at || at === document.body || root.contains(at);
    const { items, page, pageSize, filter, sort } = s.orders;
    const pages = Math.max(1, Math.ceil(items.length / pageSize));
    const rows = items.slice((page - 1) * pageSize, page * pageSize);
    const sel = s.ui.detailOpen ? backend.find(s.ui.selected) : null;
    root.innerHTML = `
<header class="top">
  <h1>${esc(s.router.title)} <small>acme shop console</small></h1>
  <form class="session" data-trace="${esc(s.router.query.debug)}">
    <input type="hidden" name="session_token" value="${esc(s.session.token)}">
    <span title="${esc(s.session.user.email)}">${esc(s.session.user.name)}</span>
    <label>Role <select id="role">${["clerk", "manager"].map((r) => `<option ${r === s.session.role ? "selected" : ""}>${r}</option>`).join("")}</select></label>
    <label class="switch"><input type="checkbox" id="big" ${backend.orders.length > 48 ? "checked" : ""} ${busy ? "disabled" : ""}> 10,000 orders</label>
  </form>
</header>
<div id="busy" class="busy" role="status" aria-live="polite" ${busy ? "" : "hidden"}><span class="spinner" aria-hidden="true"></span> ${esc(busy)}</div>
<section class="notices" aria-live="polite">${s.ui.toasts.map((t, i) => `
  <div class="toast ${esc(t.kind)}" role="status"><b>${esc(t.origin)}</b> ${esc(t.message)} <button data-dismiss="${i}" aria-label="Dismiss">×</button></div>`).join("")}
</section>
<section class="orders" aria-label="Orders">
  <div class="bar">
    <label>Status <select id="filter">${FILTERS.map((f) => `<option value="${esc(f)}" ${f === filter ? "selected" : ""}>${esc(f)}</option>`).join("")}</select></label>
    <label>Sort <select id="sort">${Object.entries(SORTS).map(([k, v]) => `<option value="${k}" ${k === sort ? "selected" : ""}>${esc(v.label)}</option>`).join("")}</select></label>
    <span class="count">${items.length.toLocaleString("en")} orders</span>
    <button id="export" ${s.session.role === "manager" ? "" : "disabled title=\"Only managers can export\""}>Export CSV</button>
  </div>
  <div class="tablewrap"><table>
    <thead><tr><th>Order</th><th>Customer</th><th>Status</th><th class="items">Items</th><th class="num">Total</th><th></th></tr></thead>
    <tbody>${rows.map((o) => `
      <tr data-order="${esc(o.number)}" data-customer-id="${esc(o.customer.id)}" title="${esc(o.customer.email)}">
        <td class="id"><a href="#/orders/${esc(o.number)}" data-open="${esc(o.number)}">${esc(o.number)}</a></td>
        <td>${esc(o.customer.name)}${o.customer.vip ? ' <span class="vip">VIP</span>' : ""}</td>
        <td><span class="status">${esc(o.status)}</span></td>
        <td class="items">${o.items}</td><td class="num">${money(o.totals.grand)}</td>
        <td class="act">${o.status === "Ready to ship"
          ? `<button data-ship="${esc(o.number)}">Ship UPS</button>`
          : `<button disabled title="Only orders that are ready to ship can be shipped">Ship</button>`}</td>
      </tr>`).join("")}
    </tbody>
  </table></div>
  <nav class="pager" aria-label="Pages">
    <button data-page="${page - 1}" ${page <= 1 ? "disabled" : ""}>‹ Prev</button>
    <span>Page ${page} of ${pages.toLocaleString("en")}</span>
    <button data-page="${page + 1}" ${page >= pages ? "disabled" : ""}>Next ›</button>
  </nav>
</section>
${sel ? `
<div class="backdrop" id="backdrop"></div>
<aside class="detail" role="dialog" aria-modal="true" aria-label="Order ${esc(sel.number)}">
  <header><h2>${esc(sel.number)}</h2><button id="close" aria-label="Close">×</button></header>
  <dl>
    <dt>Status</dt><dd>${esc(sel.status)}</dd>
    <dt>Customer</dt><dd data-customer-id="${esc(sel.customer.id)}">${esc(sel.customer.name)}</dd>
    <dt>E-mail</dt><dd><a href="mailto:${esc(sel.customer.email)}">${esc(sel.customer.email)}</a></dd>
    <dt>Phone</dt><dd>${esc(sel.customer.phone)}</dd>
    <dt>Address</dt><dd>${esc(sel.customer.address.street)}, ${esc(sel.customer.address.zip)} ${esc(sel.customer.address.city)}</dd>
    <dt>Card</dt><dd data-auth="${esc(sel.payment.authCode)}">${esc(sel.payment.card)}</dd>
    <dt>Total</dt><dd>${money(sel.totals.grand)} (net ${money(sel.totals.net)}, tax ${money(sel.totals.tax)})</dd>
    <dt>Note</dt><dd class="note">${esc(sel.note) || "<i>none</i>"}</dd>
    <dt>Internal</dt><dd class="internal">${esc(sel.internalNote)}</dd>
  </dl>
  <form id="refund" novalidate>
    <label>Refund amount (EUR) <input name="amount" inputmode="decimal" value="${esc(formAmount)}" aria-invalid="${formError ? "true" : "false"}" aria-describedby="refund-error"></label>
    <button ${s.session.role === "manager" ? "" : "disabled title=\"Only managers can refund\""}>Refund</button>
    <p id="refund-error" class="error">${esc(formError)}</p>
  </form>
</aside>` : ""}`;
    const open = sel ? sel.number : null;
    if (open && open !== shownDetail) {
      // The side panel is a modal dialog over the console: focus moves into
      // it when it opens (unless it is in the agent panel beside the console).
      if (!shownDetail) opener = keep || `a[data-open="${CSS.escape(open)}"]`;
      if (focusHere) /** @type {HTMLElement} */ (root.querySelector("#close")).focus();
    } else if (!open && shownDetail && focusHere) {
      // ...and back to what opened it (or the order's row) when it closes.
      const back = /** @type {HTMLElement | null} */ (root.querySelector(opener) ?? root.querySelector(`a[data-open="${CSS.escape(shownDetail)}"]`));
      back?.focus();
      opener = "";
    } else if (keep) {
      /** @type {HTMLElement | null} */ (root.querySelector(keep))?.focus();
    }
    shownDetail = open;
  };

  /**
   * switchOrders loads n orders with the busy indicator shown: it lets the
   * browser paint the indicator before the long work (generating the orders,
   * the redraw, the bridge's sync) and hides it once that work is done.
   * @param {number} n
   */
  async function switchOrders(n) {
    if (busy) return;
    busy = `Loading ${n.toLocaleString("en")} orders…`;
    document.documentElement.dataset.busy = "true";
    render();
    try {
      await nextPaint();
      act.loadOrders(n);
      await nextPaint();
    } finally {
      busy = "";
      delete document.documentElement.dataset.busy;
      render();
    }
  }

  root.addEventListener("change", (e) => {
    const t = /** @type {HTMLSelectElement & HTMLInputElement} */ (e.target);
    if (t.id === "filter") act.setFilter(t.value);
    else if (t.id === "sort") act.setSort(t.value);
    else if (t.id === "role") act.setRole(t.value);
    else if (t.id === "big") switchOrders(t.checked ? 10000 : 48);
  });
  root.addEventListener("click", (e) => {
    const t = /** @type {HTMLElement} */ (e.target).closest("button, a");
    if (!t) return;
    const d = t.dataset;
    if (d.open) { e.preventDefault(); act.open(d.open); }
    else if (d.ship) safely(() => act.ship(d.ship, "ups"));
    else if (d.page) act.setPage(Number(d.page));
    else if (d.dismiss) act.dismissToast(Number(d.dismiss));
    else if (t.id === "close") act.close();
    else if (t.id === "export") safely(() => act.exportCsv());
  });
  root.addEventListener("click", (e) => {
    if (/** @type {HTMLElement} */ (e.target).id === "backdrop") act.close();
  });
  root.addEventListener("input", (e) => {
    const t = /** @type {HTMLInputElement} */ (e.target);
    if (t.name === "amount") formAmount = t.value;
  });
  // Escape closes the side panel; Tab stays inside it while it is open
  // (aria-modal). The dialog covers the console only: keys pressed in the
  // agent panel beside it are left alone.
  document.addEventListener("keydown", (e) => {
    const dialog = root.querySelector(".detail");
    const at = document.activeElement;
    if (!dialog || !(at === document.body || root.contains(at))) return;
    if (e.key === "Escape") {
      e.preventDefault();
      act.close();
    } else if (e.key === "Tab") {
      const stops = [...dialog.querySelectorAll("a[href], button:not([disabled]), input, select")];
      const first = /** @type {HTMLElement} */ (stops[0]), last = /** @type {HTMLElement} */ (stops[stops.length - 1]);
      if (!dialog.contains(at) || (e.shiftKey && at === first) || (!e.shiftKey && at === last)) {
        e.preventDefault();
        (e.shiftKey ? last : first).focus();
      }
    }
  });
  root.addEventListener("submit", (e) => {
    e.preventDefault();
    const raw = String(new FormData(/** @type {HTMLFormElement} */ (e.target)).get("amount") ?? "");
    const amount = Number(raw.replace(",", "."));
    formError = "";
    formAmount = raw;
    try {
      act.refund(raw.trim() === "" ? NaN : amount);
      formAmount = "";
      render();
    } catch (err) {
      // The typed amount stays, marked invalid, with focus on it to correct it.
      formError = err.message;
      render();
      /** @type {HTMLElement | null} */ (root.querySelector("#refund [name=amount]"))?.focus();
    }
  });
  store.subscribe(render);
  render();
  return { switchOrders };
}

/** safely runs an app operation whose failure is already shown as a notice. */
function safely(fn) {
  try { fn(); } catch { /* the store holds the notice */ }
}
