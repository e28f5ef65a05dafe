// What an agent spends to finish a task on the demo: a set of tasks of the
// kinds agents are asked to do, each solved by two scripted agents that
// follow the best strategy their interface allows.
//
// - The DOM agent reads Playwright's aria snapshot of the orders console
//   (`locator.ariaSnapshot({mode: "ai"})`, what browser-automation agents
//   read) and acts through its element refs (`aria-ref=eN`): it clicks,
//   picks options, types and reads error text. It knows only what the
//   snapshot says, finds controls by role and accessible name, and pages
//   through the list to see rows that are not rendered; where the console
//   offers a filter or a sort that a person would use, it uses it.
// - The Pinhole agent reads Pinhole contexts (describe with windows and
//   record selection; the after of each execute) and executes capabilities
//   through the page's bridge, as an in-page agent or a WebMCP tool would.
//
// Both are deterministic programs, not language models. Per task and agent
// the harness counts the tokens of everything the agent read (o200k_base),
// its steps (observations + actions), whether the task succeeded (checked
// against the app's store and backend afterwards, never self-reported), and
// the planted sensitive values found in what it read.
import { makeState } from "../../testdata/orders/generate.mjs";
import { plantedValues } from "../src/domsnapshot.js";
import { byRole, disabled, DomAgent, PinholeAgent, Recorder, textOf } from "./agents.mjs";
import { leaks, tokens } from "./measure.mjs";

/** The session key of the demo page (the conformance vectors' key). */
export const KEY = "conformance-key-0001";

// ---------- the tasks ----------

/** The text the app shows for an order status that can be shipped. */
const READY = "Ready to ship";

/**
 * @typedef {object} Task
 * @property {string} name
 * @property {string} ask what the user asks the agent
 * @property {{dom: string, pinhole: string}} how each agent's strategy, in words
 * @property {number} orders orders in the shop (48 or 1,000)
 * @property {{role?: string, note?: {id: string, text: string}}} [setup]
 * @property {{when: "observed" | "ship", run: string, arg?: any}} [interrupt] what the environment does, once, at that moment
 * @property {(a: DomAgent) => Promise<any>} dom
 * @property {(a: PinholeAgent) => Promise<any>} pinhole
 * @property {(s: AppState, answer: any) => string} check "" when the task succeeded, else why not
 */

/**
 * @typedef {object} AppState
 * @property {{id: string, status: string, carrier: string, total: number, note: string}[]} orders every order of the backend
 * @property {string[]} items the ids of the current list, in view order
 * @property {string} filter
 * @property {string} sort
 * @property {string} role
 * @property {boolean} detailOpen
 * @property {string | null} selected
 * @property {{message: string, kind: string, origin: string}[]} toasts
 */

/** The orders of the backend before any agent acted. */
const initialOrders = (n) => makeState(n).orders.items;
const byId = (s, id) => s.orders.find((o) => o.id === id);
/** unchangedBut says which orders changed status other than the ones in ids ("" when none). */
function unchangedBut(s, n, ids) {
  const was = new Map(initialOrders(n).map((o) => [o.number, o.status]));
  const moved = s.orders.filter((o) => !ids.includes(o.id) && was.get(o.id) !== o.status).map((o) => o.id);
  return moved.length ? `also changed: ${moved.join(", ")}` : "";
}

const NOTE = { id: "SO-1038", text: "Leave the parcel with the neighbour at number 12 if nobody answers." };

/** @type {Task[]} */
export const TASKS = [
  {
    name: "ship-customer-order",
    how: {
      dom: "filters to Ready to ship, pages to the customer's row, clicks its Ship UPS, looks again",
      pinhole: "one window of 50 records, finds the customer, executes order.ship (the after confirms)",
    },
    ask: "Ship Lin Iyer's order with UPS.",
    orders: 48,
    async dom(a) {
      await a.snap();
      await a.choose(/status/i, READY); // a person filters to what can be shipped
      const row = await a.find((r) => r.customer === "Lin Iyer");
      if (!row) return { shipped: null };
      await a.act("ship", row.buttons.find((b) => /ship/i.test(b.name) && !disabled(b)), "click");
      await a.snap();
      return { shipped: row.id };
    },
    async pinhole(a) {
      const d = await a.describe({ limit: 50 });
      const rec = d.context.records.find((r) => r.fields.customer === "Lin Iyer");
      if (!rec) return { shipped: null };
      const res = await a.execute({ capability: "order.ship", record: rec.id, input: { carrier: "ups" }, snapshot: d.snapshot });
      return { shipped: res.ok ? rec.id : null };
    },
    check(s, ans) {
      const o = byId(s, "SO-1035");
      if (o.status !== "Shipped" || o.carrier !== "ups") return "SO-1035 is not shipped with UPS";
      return unchangedBut(s, 48, ["SO-1035"]) || (ans.shipped === "SO-1035" ? "" : "the agent named another order");
    },
  },
  {
    name: "ship-all-ready",
    how: {
      dom: "filters to Ready to ship, then ships the first row and looks again until no row is left",
      pinhole: "a window of 1, orders.view to Ready to ship, one window of 50 ready records, then order.ship for each, each with the snapshot of the previous answer",
    },
    ask: "Ship every order that is ready to ship (UPS).",
    orders: 48,
    async dom(a) {
      await a.snap();
      await a.choose(/status/i, READY);
      const shipped = [];
      // Shipped orders leave the filtered list; ship the first row until none is left.
      for (let guard = 0; guard < 100; guard++) {
        const row = a.rows().find((r) => r.buttons.some((b) => /ship/i.test(b.name) && !disabled(b)));
        if (!row) break;
        await a.act("ship", row.buttons.find((b) => /ship/i.test(b.name) && !disabled(b)), "click");
        shipped.push(row.id);
        await a.snap();
      }
      return { shipped };
    },
    async pinhole(a) {
      const look = await a.describe({ limit: 1 });
      await a.execute({ capability: "orders.view", input: { filter: READY }, snapshot: look.snapshot });
      const d = await a.describe({ limit: 50 });
      const ready = d.context.records.filter((r) => r.fields.status === READY).map((r) => r.id);
      let snapshot = d.snapshot;
      const shipped = [];
      for (const id of ready) {
        const res = await a.execute({ capability: "order.ship", record: id, input: { carrier: "ups" }, snapshot });
        if (res.ok) { shipped.push(id); snapshot = res.snapshot; }
      }
      return { shipped };
    },
    check(s) {
      const want = initialOrders(48).filter((o) => o.status === READY).map((o) => o.number);
      const left = want.filter((id) => byId(s, id).status !== "Shipped");
      return left.length ? `not shipped: ${left.join(", ")}` : unchangedBut(s, 48, want);
    },
  },
  {
    name: "why-not-shippable",
    how: {
      dom: "pages to the customer's row; reads the disabled Ship button and the status",
      pinhole: "one window of 50 records; the unavailable entry gives the app's reason (a describe of the record when the entry was cut)",
    },
    ask: "Why can't Ines Sato's order be shipped?",
    orders: 48,
    async dom(a) {
      await a.snap();
      const row = await a.find((r) => r.customer === "Ines Sato");
      if (!row) return {};
      // The snapshot shows a disabled Ship button and the status; the reason is inferred from them.
      const ship = row.buttons.find((b) => /ship/i.test(b.name));
      return { order: row.id, status: row.status, blocked: !!ship && disabled(ship), reason: `its status is ${row.status}` };
    },
    async pinhole(a) {
      const d = await a.describe({ limit: 50 });
      const rec = d.context.records.find((r) => r.fields.customer === "Ines Sato");
      if (!rec) return {};
      let reason = PinholeAgent.reason(d, "order.ship", rec.id);
      if (!reason) reason = PinholeAgent.reason(await a.describe({ record: [rec.id] }), "order.ship", rec.id);
      return { order: rec.id, status: rec.fields.status, blocked: !!reason, reason: `${reason} (status: ${rec.fields.status})` };
    },
    check(s, ans) {
      const o = byId(s, "SO-1020");
      if (ans.order !== "SO-1020") return "wrong order";
      if (!ans.blocked || ans.status !== o.status || !ans.reason.includes(o.status)) return "the answer does not give the order's status as the reason";
      return unchangedBut(s, 48, []);
    },
  },
  {
    name: "refund-after-error",
    how: {
      dom: "pages to the order, opens it, types 600, submits, reads the form's error, types the maximum, submits, looks again",
      pinhole: "describes the record, executes order.open, describes (the side panel's capabilities), order.refund 600 fails, reads the feedback, order.refund of the maximum",
    },
    ask: "Refund €600 on order SO-1007; if the app refuses the amount, refund the most it allows.",
    orders: 48,
    setup: { role: "manager" },
    async dom(a) {
      await a.snap();
      const row = await a.find((r) => r.id === "SO-1007");
      await a.act("open", row.link, "click");
      await a.snap();
      const refund = async (amount) => {
        const d = a.dialog();
        await a.act("type", byRole(d, "textbox", /refund/i)[0], "fill", amount);
        await a.act("refund", byRole(d, "button", /^refund$/i)[0], "click");
        await a.snap();
      };
      await refund("600");
      // The form's error text (or a notice) says the allowed range.
      const said = textOf(a.dialog() ?? a.tree) + " " + textOf(a.tree);
      const m = /between ([\d.]+) and ([\d.]+)/.exec(said);
      if (!m) return { refunded: null };
      await refund(m[2]);
      return { refunded: Number(m[2]) };
    },
    async pinhole(a) {
      let d = await a.describe({ record: ["SO-1007"] });
      let res = await a.execute({ capability: "order.open", record: "SO-1007", snapshot: d.snapshot });
      // The side panel is a new region: its capabilities need a new context.
      d = await a.describe({ record: ["SO-1007"] });
      res = await a.execute({ capability: "order.refund", input: { amount: 600 }, snapshot: d.snapshot });
      if (res.ok) return { refunded: 600 };
      // The handler failed: the app's validation message is in the feedback.
      d = await a.describe({ record: ["SO-1007"] });
      const said = d.context.feedback.map((f) => f.text).join(" ");
      const m = /between ([\d.]+) and ([\d.]+)/.exec(said);
      if (!m) return { refunded: null };
      res = await a.execute({ capability: "order.refund", input: { amount: Number(m[2]) }, snapshot: d.snapshot });
      return { refunded: res.ok ? Number(m[2]) : null };
    },
    check(s, ans) {
      const ok = s.toasts.filter((t) => t.kind === "success" && /^Refunded/.test(t.message));
      if (ok.length !== 1 || ok[0].message !== "Refunded 581.26 EUR on SO-1007") return `refunds: ${ok.map((t) => t.message).join("; ") || "none"}`;
      return ans.refunded === 581.26 ? "" : "the agent reports another amount";
    },
  },
  {
    name: "largest-total-1000",
    how: {
      dom: "sorts by Total, highest first and reads the first row",
      pinhole: "a window of 1, orders.view sorted by total, highest first, and a window of 1 again",
    },
    ask: "Which of the 1,000 orders has the largest total?",
    orders: 1000,
    async dom(a) {
      await a.snap();
      await a.choose(/sort/i, /total/i); // "Total, highest first"
      const top = a.rows()[0];
      return { order: top?.id, total: top?.total };
    },
    async pinhole(a) {
      const look = await a.describe({ limit: 1 });
      await a.execute({ capability: "orders.view", input: { sort: "-total" }, snapshot: look.snapshot });
      const top = (await a.describe({ limit: 1 })).context.records[0];
      return { order: top?.id, total: top?.fields.total };
    },
    check(s, ans) {
      const best = s.orders.reduce((x, o) => (o.total > x.total ? o : x));
      return ans.order === best.id ? "" : `answered ${ans.order}, the largest is ${best.id}`;
    },
  },
  {
    name: "act-after-filter-change",
    how: {
      dom: "looks, the user changes the view, looks again, ships the first row, looks again",
      pinhole: "describes, the user changes the view, describes a window of 1, executes order.ship",
    },
    ask: "(after looking at the list, the user filters it to ready orders, highest total first) Ship the first order they see now.",
    orders: 48,
    interrupt: { when: "observed", run: "filterReadyByTotal" },
    async dom(a) {
      await a.snap(); // the earlier look; then the user changes the view
      await a.snap();
      const row = a.rows()[0];
      await a.act("ship", row.buttons.find((b) => /ship/i.test(b.name) && !disabled(b)), "click");
      await a.snap();
      return { shipped: row.id };
    },
    async pinhole(a) {
      await a.describe(); // the earlier look; then the user changes the view
      const d = await a.describe({ limit: 1 });
      const rec = d.context.records[0];
      const res = await a.execute({ capability: "order.ship", record: rec.id, input: { carrier: "ups" }, snapshot: d.snapshot });
      return { shipped: res.ok ? rec.id : null };
    },
    check(s, ans) {
      const o = byId(s, "SO-1007");
      if (o.status !== "Shipped") return "SO-1007 (the first ready order by total) is not shipped";
      return unchangedBut(s, 48, ["SO-1007"]) || (ans.shipped === "SO-1007" ? "" : "the agent names another order");
    },
  },
  {
    name: "stale-snapshot",
    how: {
      dom: "pages to the order; its Ship UPS ref is gone when clicked (the row was redrawn); looks again and reads Shipped",
      pinhole: "describes the record; order.ship answers stale_snapshot; describes the record again and reads Shipped",
    },
    ask: "Ship order SO-1013 (another user ships it with DHL just before the agent acts).",
    orders: 48,
    interrupt: { when: "ship", run: "shipElsewhere", arg: "SO-1013" },
    async dom(a) {
      await a.snap();
      let row = await a.find((r) => r.id === "SO-1013");
      const ship = row.buttons.find((b) => /ship/i.test(b.name) && !disabled(b));
      if (ship && await a.act("ship", ship, "click")) {
        await a.snap();
        return { shipped: true };
      }
      // The element of the old snapshot is gone: look again.
      await a.snap();
      row = await a.find((r) => r.id === "SO-1013");
      return { shipped: false, status: row.status };
    },
    async pinhole(a) {
      const d = await a.describe({ record: ["SO-1013"] });
      const res = await a.execute({ capability: "order.ship", record: "SO-1013", input: { carrier: "ups" }, snapshot: d.snapshot });
      if (res.ok) return { shipped: true };
      // stale_snapshot: the record changed since the context was read.
      const again = await a.describe({ record: ["SO-1013"] });
      return { shipped: false, status: again.context.records[0].fields.status, error: res.error?.code };
    },
    check(s, ans) {
      const o = byId(s, "SO-1013");
      if (o.status !== "Shipped" || o.carrier !== "dhl") return "SO-1013 was shipped again or changed";
      if (ans.shipped !== false || ans.status !== "Shipped") return "the agent does not report that it was already shipped";
      return unchangedBut(s, 48, ["SO-1013"]);
    },
  },
  {
    name: "open-and-read-note",
    how: {
      dom: "pages to the order, opens it, reads the Note in the side panel",
      pinhole: "describes the record (the note is a field), executes order.open",
    },
    ask: "Open order SO-1023 and tell me its note.",
    orders: 48,
    async dom(a) {
      await a.snap();
      const row = await a.find((r) => r.id === "SO-1023");
      await a.act("open", row.link, "click");
      await a.snap();
      return { note: a.detail().note ?? null };
    },
    async pinhole(a) {
      const d = await a.describe({ record: ["SO-1023"] });
      await a.execute({ capability: "order.open", record: "SO-1023", snapshot: d.snapshot });
      return { note: d.context.records[0].fields.note };
    },
    check(s, ans) {
      if (!s.detailOpen || s.selected !== "SO-1023") return "SO-1023 is not open";
      return ans.note === byId(s, "SO-1023").note ? "" : "wrong note";
    },
  },
  {
    name: "count-by-status",
    how: {
      dom: "picks each status in the Status filter and reads the count",
      pinhole: "one window of 50 records, counts the statuses",
    },
    ask: "How many orders are there in each status?",
    orders: 48,
    async dom(a) {
      await a.snap();
      const box = byRole(a.tree, "combobox", /status/i)[0];
      const statuses = byRole(box, "option").map((o) => o.name).filter((n) => !/^all$/i.test(n));
      const counts = {};
      for (const st of statuses) {
        await a.choose(/status/i, st);
        counts[st] = a.count();
      }
      return { counts };
    },
    async pinhole(a) {
      const { records } = await a.everything();
      const counts = {};
      for (const r of records) counts[r.fields.status] = (counts[r.fields.status] ?? 0) + 1;
      return { counts };
    },
    check(s, ans) {
      const want = {};
      for (const o of s.orders) want[o.status] = (want[o.status] ?? 0) + 1;
      const got = ans.counts ?? {};
      const bad = Object.keys(want).filter((k) => got[k] !== want[k]);
      return bad.length ? `wrong counts for ${bad.join(", ")}` : "";
    },
  },
  {
    name: "find-note-mentions",
    how: {
      dom: "opens every order in turn (notes are only in the side panel), closing it and paging, until the note matches",
      pinhole: "one window of 50 records; the note is a field",
    },
    ask: "Which order's note mentions the neighbour?",
    orders: 48,
    setup: { note: NOTE },
    async dom(a) {
      // Notes are shown only in the side panel: open each order in turn.
      await a.snap();
      for (let guard = 0; guard < 1000; guard++) {
        for (const { id } of a.rows()) {
          const row = a.rows().find((r) => r.id === id);
          await a.act("open", row.link, "click");
          await a.snap();
          const note = a.detail().note ?? "";
          await a.closeDialog();
          if (/neighbour/i.test(note)) return { order: id };
        }
        const next = a.nextPage();
        if (!next) return { order: null };
        await a.act("page", next, "click");
        await a.snap();
      }
      return { order: null };
    },
    async pinhole(a) {
      const { records } = await a.everything();
      const rec = records.find((r) => /neighbour/i.test(r.fields.note ?? ""));
      return { order: rec?.id ?? null };
    },
    check(s, ans) {
      return ans.order === NOTE.id ? "" : `answered ${ans.order}`;
    },
  },
  {
    name: "export-not-manager",
    how: {
      dom: "finds Export CSV disabled and the role picker on clerk; answers from those",
      pinhole: "describes a window of 1; the unavailable entry gives the app's reason",
    },
    ask: "Export the order list as CSV (the user is a clerk): do it, or say why not.",
    orders: 48,
    async dom(a) {
      await a.snap();
      const exp = byRole(a.tree, "button", /export/i)[0];
      if (exp && !disabled(exp)) {
        await a.act("export", exp, "click");
        await a.snap();
        return { exported: true };
      }
      // The button is disabled; the role picker says who is signed in and which roles exist.
      const role = byRole(a.tree, "combobox", /role/i)[0];
      const current = role && byRole(role, "option").find((o) => o.attrs.includes("selected"))?.name;
      const other = role && byRole(role, "option").find((o) => !o.attrs.includes("selected"))?.name;
      return { exported: false, reason: `Export CSV is disabled for the role ${current}; it presumably needs the role ${other}` };
    },
    async pinhole(a) {
      const d = await a.describe({ limit: 1 });
      const reason = PinholeAgent.reason(d, "orders.export");
      if (!reason) {
        await a.execute({ capability: "orders.export", snapshot: d.snapshot });
        return { exported: true };
      }
      return { exported: false, reason };
    },
    check(s, ans) {
      if (s.toasts.some((t) => /^Exported/.test(t.message))) return "an export ran";
      return ans.exported === false && /manager/.test(ans.reason) ? "" : "no reason naming the manager role";
    },
  },
  {
    name: "page-to-last-1000",
    how: {
      dom: "clicks Next page by page to the last of 125 pages, opens the last row",
      pinhole: "describes a window of 1 (recordIds lists every id), executes order.open on the last",
    },
    ask: "Open the last order of the list (1,000 orders).",
    orders: 1000,
    async dom(a) {
      await a.snap();
      while (a.nextPage()) {
        await a.act("page", a.nextPage(), "click");
        await a.snap();
      }
      const rows = a.rows();
      const last = rows[rows.length - 1];
      await a.act("open", last.link, "click");
      await a.snap();
      return { opened: last.id };
    },
    async pinhole(a) {
      const d = await a.describe({ limit: 1 });
      const { recordIds, recordIdsTotal, recordsTotal } = d.context;
      let last = recordIds[recordIds.length - 1];
      let snapshot = d.snapshot;
      if (recordIdsTotal > recordIds.length) {
        const e = await a.describe({ offset: recordsTotal - 1, limit: 1 });
        last = e.context.records[0].id;
        snapshot = e.snapshot;
      }
      const res = await a.execute({ capability: "order.open", record: last, snapshot });
      return { opened: res.ok ? last : null };
    },
    check(s, ans) {
      const last = s.items[s.items.length - 1];
      if (!s.detailOpen || s.selected !== last) return `${last} is not open`;
      return ans.opened === last ? "" : "the agent names another order";
    },
  },
];

// ---------- the environment (runs in the page) ----------

/** setupPage prepares the demo page for a task, through the app's own store and backend. */
function setupPage({ orders, role, note }) {
  const { app, pinhole } = /** @type {any} */ (window).demo;
  const requery = () => app.store.setState((s) => ({ ...s, orders: { ...s.orders, items: app.backend.query(s.orders.filter, s.orders.sort) } }), true);
  if (app.backend.orders.length !== orders) {
    app.backend.load(orders);
    app.store.setState((s) => ({ ...s, orders: { ...s.orders, page: 1 } }), true);
    requery();
  }
  if (role) app.act.setRole(role);
  if (note) {
    app.backend.update(note.id, (o) => ({ ...o, note: note.text }));
    requery();
  }
  pinhole.flush();
}

/** interruptPage is what the environment does while the agent works. */
function interruptPage({ run, arg }) {
  const { app } = /** @type {any} */ (window).demo;
  if (run === "filterReadyByTotal") {
    app.act.setFilter("Ready to ship");
    app.act.setSort("-total");
  } else if (run === "shipElsewhere") {
    app.act.ship(arg, "dhl");
  } else throw new Error(`unknown interrupt ${run}`);
}

/** readState reads what the check needs from the app's store and backend. */
function readState() {
  const { app } = /** @type {any} */ (window).demo;
  const s = app.store.getState();
  return {
    orders: app.backend.orders.map((o) => ({ id: o.number, status: o.status, carrier: o.carrier, total: o.totals.grand, note: o.note })),
    items: s.orders.items.map((o) => o.number), filter: s.orders.filter, sort: s.orders.sort, role: s.session.role,
    detailOpen: s.ui.detailOpen, selected: s.ui.selected, toasts: s.ui.toasts,
  };
}

/** Planted sensitive values per shop size. */
const plantedFor = new Map();
function planted(n) {
  if (!plantedFor.has(n)) {
    const st = makeState(n);
    plantedFor.set(n, plantedValues(st, st.orders.items));
  }
  return plantedFor.get(n);
}

/**
 * @typedef {object} TaskResult
 * @property {string} task
 * @property {"dom" | "pinhole" | "idle"} agent
 * @property {boolean} success
 * @property {string} failure why not ("" on success)
 * @property {number} tokens o200k_base tokens of everything the agent read
 * @property {number} steps observations + actions
 * @property {number} observations
 * @property {number} actions
 * @property {number} sensitive distinct planted sensitive values in what the agent read
 * @property {Record<string, number>} sensitiveKinds
 * @property {number} bytes
 * @property {number} ms wall time of the agent's run
 * @property {any} answer
 */

/**
 * runTask opens the demo in a fresh browser context, prepares it, runs one
 * agent on one task, and checks the app's state afterwards. The "idle"
 * agent does nothing: a baseline for which every check must fail.
 * @param {import("playwright-core").Browser} browser
 * @param {string} url the demo's address
 * @param {Task} task
 * @param {"dom" | "pinhole" | "idle"} agent
 * @returns {Promise<TaskResult>}
 */
export async function runTask(browser, url, task, agent) {
  const context = await browser.newContext({ viewport: { width: 1500, height: 940 } });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(120000);
    await page.goto(`${url}?key=${KEY}`);
    await page.waitForSelector("html[data-ready=true]");
    await page.evaluate(setupPage, { orders: task.orders, role: task.setup?.role ?? null, note: task.setup?.note ?? null });
    const rec = new Recorder();
    let pending = task.interrupt;
    const before = async (kind) => {
      if (pending && pending.when === kind) {
        const it = pending;
        pending = undefined;
        await page.evaluate(interruptPage, { run: it.run, arg: it.arg ?? null });
      }
    };
    const t0 = performance.now();
    let answer;
    let failure = "";
    try {
      if (agent === "dom") answer = await task.dom(new DomAgent(page, rec, before));
      else if (agent === "pinhole") answer = await task.pinhole(new PinholeAgent(page, rec, before));
      else answer = {}; // "idle": reads nothing, does nothing (the checks must fail for it)
    } catch (err) {
      failure = `the agent failed: ${err?.message ?? err}`;
    }
    const ms = performance.now() - t0;
    await page.evaluate(() => /** @type {any} */ (window).demo.pinhole.flush());
    const state = await page.evaluate(readState);
    if (!failure) failure = task.check(state, answer ?? {});
    const read = rec.reads.join("\n");
    const exposed = leaks(read, planted(task.orders));
    return {
      task: task.name, agent, success: failure === "", failure,
      tokens: rec.reads.reduce((n, t) => n + tokens(t), 0),
      steps: rec.observations + rec.actions, observations: rec.observations, actions: rec.actions,
      sensitive: exposed.count, sensitiveKinds: exposed.kinds, bytes: Buffer.byteLength(read), ms, answer: answer ?? null,
    };
  } finally {
    await context.close();
  }
}
