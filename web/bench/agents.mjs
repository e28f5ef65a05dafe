// The two scripted agents of the task benchmark (tasks.mjs) and what they
// read: the DOM agent parses Playwright's aria snapshot (AI mode) and acts
// through its element refs, finding controls by role and accessible name
// only; the Pinhole agent reads contexts and executes capabilities through
// the page's bridge. Both record every text they read and every step.

/** How long an action on a ref waits for its element before the agent gives up on it. */
const ACTION_TIMEOUT = 2000;

// ---------- the aria snapshot, as the DOM agent reads it ----------

/**
 * @typedef {object} AriaNode
 * @property {string} role
 * @property {string} name
 * @property {string} ref
 * @property {string[]} attrs e.g. "disabled", "selected", "level=1"
 * @property {string} text text after the colon
 * @property {AriaNode[]} children
 */

const LINE = /^- ([a-z]+)(?: "((?:[^"\\]|\\.)*)")?((?: \[[^\]]*\])*)(?::(?: (.*))?)?$/;

/** unquote reads a YAML scalar of the snapshot. */
function unquote(s) {
  if (s === undefined) return "";
  s = s.trim();
  if (s.startsWith('"')) {
    try { return JSON.parse(s); } catch { return s.slice(1, -1); }
  }
  return s;
}

/**
 * parseAria turns an AI-mode aria snapshot into a tree.
 * @param {string} text
 * @returns {AriaNode}
 */
export function parseAria(text) {
  /** @type {AriaNode} */
  const root = { role: "root", name: "", ref: "", attrs: [], text: "", children: [] };
  const stack = [{ indent: -1, node: root }];
  for (const raw of text.split("\n")) {
    const m = /^(\s*)(- .*)$/.exec(raw);
    if (!m) continue;
    const indent = m[1].length;
    const body = m[2];
    while (stack.length > 1 && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack[stack.length - 1].node;
    if (body.startsWith("- /")) continue; // a property such as /url
    const l = LINE.exec(body);
    if (!l) continue;
    const attrs = (l[3].match(/\[[^\]]*\]/g) ?? []).map((a) => a.slice(1, -1));
    const refAttr = attrs.find((a) => a.startsWith("ref="));
    /** @type {AriaNode} */
    const node = {
      role: l[1], name: l[2] === undefined ? "" : unquote(`"${l[2]}"`), ref: refAttr ? refAttr.slice(4) : "",
      attrs: attrs.filter((a) => !a.startsWith("ref=") && !a.startsWith("cursor=")), text: unquote(l[4]), children: [],
    };
    parent.children.push(node);
    stack.push({ indent, node });
  }
  return root;
}

/** all returns every node under n (depth first) that matches pred. */
function all(n, pred, out = []) {
  for (const c of n.children) {
    if (pred(c)) out.push(c);
    all(c, pred, out);
  }
  return out;
}
const matches = (want, s) => (want === undefined ? true : want instanceof RegExp ? want.test(s) : want === s);
/** byRole returns the nodes of role whose accessible name matches name (a string or RegExp). */
export const byRole = (n, role, name) => all(n, (c) => c.role === role && matches(name, c.name));
/** textOf is everything a node says: its name, its text and its descendants'. */
export const textOf = (n) => [n.name, n.text, ...n.children.map(textOf)].filter(Boolean).join(" ").replace(/\s+/g, " ").trim();
export const disabled = (n) => n.attrs.includes("disabled");
/** money reads "€1,234.56" (or "1234.56") as a number. */
const money = (s) => Number(String(s).replace(/[^\d.]/g, ""));

/**
 * tableRows reads the rows of the orders table: for each row the cell
 * texts keyed by column header, the order link and the row's buttons.
 * @param {AriaNode} tree
 */
export function tableRows(tree) {
  const table = byRole(tree, "table")[0];
  if (!table) return [];
  const headers = byRole(table, "columnheader").map((h) => h.name.toLowerCase());
  const col = (re) => headers.findIndex((h) => re.test(h));
  const at = { id: col(/order/), customer: col(/customer/), status: col(/status/), total: col(/total/) };
  return byRole(table, "row").filter((r) => byRole(r, "cell").length).map((r) => {
    const cells = r.children.filter((c) => c.role === "cell");
    const cell = (i) => (i >= 0 && cells[i] ? textOf(cells[i]) : "");
    const link = byRole(r, "link")[0];
    return {
      id: link?.name ?? cell(at.id), link,
      customer: cell(at.customer).replace(/\s*\bVIP\b\s*/g, " ").trim(),
      status: cell(at.status), total: money(cell(at.total)),
      buttons: byRole(r, "button"),
    };
  });
}

// ---------- recording what an agent read and did ----------

/** Recorder counts one agent's reads and steps for one task. */
export class Recorder {
  constructor() {
    /** @type {string[]} */
    this.reads = [];
    this.observations = 0;
    this.actions = 0;
  }
  /** read records one observation's text. */
  read(text) {
    this.reads.push(text);
    return text;
  }
}

// ---------- the two agents ----------

/**
 * DomAgent reads the aria snapshot of the console and acts through its refs.
 */
export class DomAgent {
  /**
   * @param {import("playwright-core").Page} page
   * @param {Recorder} rec
   * @param {(kind: string) => Promise<void>} before called before each action (the environment may move)
   */
  constructor(page, rec, before) {
    this.page = page;
    this.rec = rec;
    this.before = before;
    /** @type {AriaNode} */
    this.tree = parseAria("");
  }

  /** snap takes an aria snapshot of the console: one observation. */
  async snap() {
    const text = await this.page.locator("#console").ariaSnapshot({ mode: "ai" });
    this.rec.read(text);
    this.rec.observations++;
    this.tree = parseAria(text);
    await this.before("observed");
    return this.tree;
  }

  /**
   * act runs one action on a node of the last snapshot through its ref;
   * false when the element is gone or refuses (the agent then looks again).
   * @param {string} kind what the action is for ("ship", "page", …)
   * @param {AriaNode} node
   * @param {"click" | "select" | "fill"} how
   * @param {string} [arg]
   */
  async act(kind, node, how, arg) {
    await this.before(kind);
    this.rec.actions++;
    const loc = this.page.locator(`aria-ref=${node.ref}`);
    try {
      if (how === "click") await loc.click({ timeout: ACTION_TIMEOUT });
      else if (how === "select") await loc.selectOption({ label: String(arg) }, { timeout: ACTION_TIMEOUT });
      else await loc.fill(String(arg), { timeout: ACTION_TIMEOUT });
      return true;
    } catch {
      return false;
    }
  }

  /** rows are the table rows of the last snapshot. */
  rows() {
    return tableRows(this.tree);
  }

  /** nextPage is the enabled "next page" button of the last snapshot, or null. */
  nextPage() {
    const nav = byRole(this.tree, "navigation")[0] ?? this.tree;
    return byRole(nav, "button", /next/i).find((b) => !disabled(b)) ?? null;
  }

  /** count is the number of orders the console says the list holds. */
  count() {
    const region = byRole(this.tree, "region", /orders/i)[0] ?? this.tree;
    const t = textOf(region);
    // "48 orders", or a range label such as "1–8 of 48" (never "Page 1 of 6").
    const m = /(?<!of )\b([\d,]+) orders?\b/.exec(t) ?? /\d+\s*[–-]\s*\d+ of ([\d,]+)/.exec(t);
    return m ? Number(m[1].replace(/,/g, "")) : NaN;
  }

  /**
   * choose picks the option of a combobox whose name matches box and whose
   * option name matches want, then looks again.
   * @param {RegExp} box
   * @param {RegExp | string} want
   */
  async choose(box, want) {
    const cb = byRole(this.tree, "combobox", box)[0];
    if (!cb) throw new Error(`no combobox ${box}`);
    const opt = byRole(cb, "option", want)[0];
    if (!opt) throw new Error(`no option ${want} in ${box}`);
    await this.act("choose", cb, "select", opt.name);
    return this.snap();
  }

  /**
   * find pages forward from the current page until a row matches pred.
   * @param {(row: ReturnType<typeof tableRows>[number]) => boolean} pred
   */
  async find(pred) {
    for (;;) {
      const row = this.rows().find(pred);
      if (row) return row;
      const next = this.nextPage();
      if (!next) return null;
      await this.act("page", next, "click");
      await this.snap();
    }
  }

  /** dialog is the side panel of the last snapshot, or null. */
  dialog() {
    return byRole(this.tree, "dialog")[0] ?? null;
  }

  /** detail reads the side panel's term/definition pairs. */
  detail() {
    const d = this.dialog();
    if (!d) return {};
    const out = {};
    const items = all(d, (c) => c.role === "term" || c.role === "definition");
    for (let i = 0; i + 1 < items.length; i++) {
      if (items[i].role === "term" && items[i + 1].role === "definition") out[textOf(items[i]).toLowerCase()] = textOf(items[i + 1]);
    }
    return out;
  }

  /** closeDialog closes the side panel by its Close button and looks again. */
  async closeDialog() {
    const d = this.dialog();
    const close = d && byRole(d, "button", /close/i)[0];
    if (close) await this.act("close", close, "click");
    return this.snap();
  }
}

/**
 * PinholeAgent reads Pinhole contexts and executes capabilities through
 * the page's bridge.
 */
export class PinholeAgent {
  /**
   * @param {import("playwright-core").Page} page
   * @param {Recorder} rec
   * @param {(kind: string) => Promise<void>} before
   */
  constructor(page, rec, before) {
    this.page = page;
    this.rec = rec;
    this.before = before;
  }

  /** describe reads one context: one observation. */
  async describe(request = {}) {
    const text = await this.page.evaluate((r) => window.demo.pinhole.describeText(r), request);
    this.rec.read(text);
    this.rec.observations++;
    await this.before("observed");
    return JSON.parse(text);
  }

  /** execute runs one capability: one action, whose answer (with its after) the agent reads. */
  async execute(request) {
    await this.before(request.capability === "order.ship" ? "ship" : request.capability);
    const res = await this.page.evaluate((r) => window.demo.pinhole.execute(r), request);
    this.rec.read(JSON.stringify(res));
    this.rec.actions++;
    return res;
  }

  /**
   * everything reads every record of the view in windows of the largest
   * limit, and answers the records and the last context.
   */
  async everything() {
    let d = await this.describe({ limit: 50 });
    const limit = d.limits.maxLimit;
    if (limit !== 50) d = await this.describe({ limit });
    const records = [...d.context.records];
    while (d.context.recordWindow?.next != null) {
      d = await this.describe({ offset: d.context.recordWindow.next, limit });
      records.push(...d.context.records);
    }
    return { records, last: d };
  }

  /** reason finds why capability cannot run on record in a context, or "". */
  static reason(d, capability, record) {
    const u = d.context.unavailable.find((x) => x.capability === capability && (record === undefined || x.record === record));
    return u ? u.reason : "";
  }
}

