// The agent panel. Its default view answers "why Pinhole" at a glance: what
// an agent gets from this screen through the context (every order id, why
// actions are unavailable, no sensitive value) beside what a DOM snapshot of
// the same screen carries (the rows on screen, with the sensitive values it
// holds highlighted), with the counts and what each lets an agent do. The
// raw context (the exact JSON, for any describe request) is one click away,
// and a small scripted agent runs against the bridge.
import { domSnapshot, leaks, plantedValues } from "./domsnapshot.js";
import { jsonHTML } from "./jsonview.js";
import { esc } from "./view.js";

const bytes = (s) => new TextEncoder().encode(s).length;
const kb = (n) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`);
const num = (n) => Number(n).toLocaleString("en");
const plural = (n, one, many = one + "s") => `${num(n)} ${n === 1 ? one : many}`;
/**
 * The most rendered rows the overview snapshots and scans for sensitive
 * values. The console renders 8; a page made to render thousands (as the
 * benchmarks do) would otherwise spend seconds on every store change.
 */
const MAX_SCANNED_ROWS = 200;

/**
 * windowText describes a record window as a reader counts: "1–8 of 48".
 * @param {{offset: number, returned: number, total: number}} w
 */
export function windowText(w) {
  if (w.returned === 0) return `none at offset ${num(w.offset)} of ${num(w.total)}`;
  const first = w.offset + 1, last = w.offset + w.returned;
  return `${first === last ? num(first) : `${num(first)}–${num(last)}`} of ${num(w.total)}`;
}

/**
 * mountPanel renders the agent panel into root.
 * @param {HTMLElement} root
 * @param {{pinhole: any, app: {store: any, backend: any}, consoleRoot: HTMLElement}} deps
 */
export function mountPanel(root, { pinhole, app, consoleRoot }) {
  /** The next describe request of the raw view, as the agent would send it. */
  let request = {};
  /** The raw view's last answer. */
  let last = { text: "", value: /** @type {any} */ (null) };
  /** What the overview shows: the default describe and the DOM snapshot, with counts. */
  let overview = /** @type {any} */ (null);
  const log = [];

  root.innerHTML = `
<header class="agenthead"><h2>What an agent gets from this screen</h2></header>
<p id="summary" class="summary" aria-live="polite"></p>
<div id="views" class="views">
  <section id="ctxside" class="pane ctx" aria-labelledby="ctx-h">
    <h3 id="ctx-h">Pinhole context</h3>
    <p id="ctxfigs" class="figs"></p>
    <p id="ctxlets" class="lets"></p>
    <h4>Every order id the agent can reference <small>(on screen: outlined)</small></h4>
    <div id="ids" class="ids"></div>
    <h4>Unavailable actions, with the app's reasons</h4>
    <ul id="reasons" class="reasons"></ul>
  </section>
  <section id="domside" class="pane dom" aria-labelledby="dom-h">
    <h3 id="dom-h">DOM snapshot of the same screen</h3>
    <p id="domfigs" class="figs"></p>
    <p id="domlets" class="lets"></p>
    <ul id="found" class="found" aria-label="Sensitive values in the DOM snapshot"></ul>
    <pre id="dom" class="json dom" tabindex="0" aria-label="DOM snapshot text, sensitive values marked"></pre>
  </section>
</div>
<details id="raw" class="raw">
  <summary>Raw context: the exact JSON the agent receives</summary>
  <form id="req" class="req">
    <label>offset <input name="offset" size="4" inputmode="numeric"></label>
    <label>limit <input name="limit" size="4" inputmode="numeric"></label>
    <label>record <input name="record" size="14" placeholder="SO-1002"></label>
    <button>Describe</button>
  </form>
  <div class="nextreq">Next describe request: <code id="nextreq">{}</code></div>
  <div id="stats" class="stats"></div>
  <pre id="context" class="json" tabindex="0" aria-label="The context, as JSON"></pre>
</details>
<section class="script"><h3>Scripted agent <button type="button" id="run">Run scripted agent</button></h3>
  <p class="lets">Lists the ids, pages through the window, opens an order by id, ships it and reads the <code>after</code>, then sends a request the module refuses.</p>
  <ol id="log" class="log"></ol></section>`;
  const $ = (sel) => /** @type {HTMLElement} */ (root.querySelector(sel));

  /** describeText answers a describe request as text; an error thrown by the bridge becomes its error answer. */
  async function describeText(req) {
    try {
      return await pinhole.describeText(req);
    } catch (err) {
      return JSON.stringify({ error: errorOf(err) });
    }
  }

  /** Refreshes started, and the render of the latest: an older one whose answers come later shows nothing. */
  let started = 0;
  /** @type {Promise<void>} */
  let latest = Promise.resolve();

  /** refresh shows the current request's answer; it settles once the latest refresh has rendered. */
  async function refresh() {
    let p = render(++started);
    latest = p;
    await p;
    while (latest !== p) {
      p = latest;
      await p;
    }
  }

  /** @param {number} n */
  async function render(n) {
    const req = request;
    const isDefault = Object.keys(req).length === 0;
    const [main, raw] = await Promise.all([describeText({}), isDefault ? null : describeText(req)]);
    if (n !== started) return;
    // The request and its answer are shown together.
    $("#nextreq").textContent = JSON.stringify(req);
    const mainValue = JSON.parse(main);
    last = raw === null ? { text: main, value: mainValue } : { text: raw, value: JSON.parse(raw) };
    $("#context").innerHTML = jsonHTML(last.value);
    renderOverview(main, mainValue);
    renderStats();
  }

  /**
   * renderOverview fills the two panes and the summary line from the default context (its text and parsed value) and the DOM.
   * @param {string} text @param {any} value
   */
  function renderOverview(text, value) {
    const c = value?.context;
    if (!c) {
      $("#summary").textContent = `The module answered ${value?.error?.code ?? "no context"}.`;
      return;
    }
    const s = app.store.getState();
    const rows = [...consoleRoot.querySelectorAll("tbody tr[data-order]")].map((e) => /** @type {HTMLElement} */ (e).dataset.order);
    const scanned = rows.length <= MAX_SCANNED_ROWS;
    const dom = scanned ? domSnapshot(consoleRoot) : "";
    // The sensitive values of every order the screen or the context shows, and the session's own.
    const shown = new Set(scanned ? rows : []);
    if (s.ui.selected) shown.add(s.ui.selected);
    for (const r of c.records) shown.add(r.id);
    const planted = plantedValues(s, [...shown].map((n) => app.backend.find(n)).filter(Boolean));
    const inDom = leaks(dom, planted), inCtx = leaks(text, planted);
    const orders = s.orders.items.length;
    overview = {
      dom: { rows: rows.length, orders, sensitive: inDom.length, bytes: bytes(dom) },
      context: { ids: c.recordIds.length, idsTotal: c.recordIdsTotal, sensitive: inCtx.length, bytes: bytes(text),
        unavailableTotal: c.unavailableTotal, capabilities: value.capabilities.length },
    };

    const domCount = scanned ? plural(inDom.length, "sensitive value") : `not scanned above ${MAX_SCANNED_ROWS} rows`;
    $("#summary").innerHTML = `<span class="bad">DOM snapshot: <b>${num(rows.length)} of ${plural(orders, "order")}</b>, <b>${domCount}</b></span>`
      + ` · <span class="good">Pinhole context: <b>${num(c.recordIds.length)} of ${plural(c.recordIdsTotal, "id")}</b>, <b>${plural(inCtx.length, "sensitive value")}</b></span>`;

    const w = c.recordWindow;
    $("#ctxfigs").innerHTML = [
      `<b>${num(c.recordIds.length)} of ${num(c.recordIdsTotal)}</b> ids`,
      `records ${w ? windowText(w) : `${num(c.records.length)} of ${num(c.recordsTotal)}`} in full`,
      `${plural(c.unavailableTotal, "unavailable action")}`,
      `<b class="${inCtx.length ? "bad" : "good"}">${plural(inCtx.length, "sensitive value")}</b>`,
      kb(bytes(text)),
    ].join(" · ");
    const more = c.recordIdsTotal - c.recordIds.length;
    $("#ctxlets").innerHTML = `Lets an agent reference ${more ? `${num(c.recordIds.length)} of the ${num(c.recordIdsTotal)} orders by id (the total tells it there are more)` : `every one of the ${num(c.recordIdsTotal)} orders by id`}, read any of them (${num(value.limits.defaultLimit)} per window, or by id), know before acting which actions are unavailable and why, and act only through the ${plural(value.capabilities.length, "declared capability", "declared capabilities")}. E-mails are masked, phones aliased, cards placeholders: enough to act on, nothing to leak.`;

    const onScreen = new Set(rows);
    $("#ids").innerHTML = c.recordIds.map((id) => `<span class="id${onScreen.has(id) ? " onscreen" : ""}">${esc(id)}</span>`).join(" ")
      + (more ? ` <span class="more">+${num(more)} more (recordIdsTotal ${num(c.recordIdsTotal)})</span>` : "");
    $("#reasons").innerHTML = groupReasons(c.unavailable).map((g) => `<li><code>${esc(g.capability)}</code>${g.records.length ? ` on ${g.records.map(esc).join(", ")}` : ""}: ${esc(g.reason)}</li>`).join("")
      + (c.unavailableTotal > c.unavailable.length ? `<li class="more">${num(c.unavailableTotal - c.unavailable.length)} more (unavailableTotal ${num(c.unavailableTotal)})</li>` : "")
      + (c.unavailableTotal === 0 ? "<li>none</li>" : "");

    $("#domfigs").innerHTML = [
      `<b>${num(rows.length)} of ${num(orders)}</b> orders`,
      `<b class="${inDom.length || !scanned ? "bad" : "good"}">${domCount}</b>`,
      scanned ? kb(bytes(dom)) : "",
    ].filter(Boolean).join(" · ");
    const kinds = [...new Set(inDom.map(([, what]) => what))];
    $("#domlets").innerHTML = `Lets an agent read and click the ${plural(rows.length, "row")} on screen${orders > rows.length ? `; the other ${num(orders - rows.length)} orders are behind the pager` : ""}, and why an action is disabled only where a tooltip says so.`
      + (kinds.length ? ` It also hands over what the page holds in text and attributes: <span class="bad">${kinds.map(esc).join(", ")}</span>.` : "");
    const FOUND = 6;
    $("#found").innerHTML = inDom.slice(0, FOUND).map(([val, what]) => `<li><mark class="leak">${esc(val.length > 28 ? val.slice(0, 25) + "…" : val)}</mark> ${esc(what)}</li>`).join("")
      + (inDom.length > FOUND ? `<li class="more">and ${num(inDom.length - FOUND)} more, marked below</li>` : "");
    $("#dom").innerHTML = markLeaks(dom, inDom.map(([val]) => val));
  }

  /** renderStats writes the raw view's figures for its last answer. */
  function renderStats() {
    const v = last.value;
    const c = v?.context;
    const parts = [`<b>${kb(bytes(last.text))}</b> context`];
    if (c) {
      const w = c.recordWindow;
      parts.push(`records ${w ? windowText(w) : `${num(c.records.length)} of ${num(c.recordsTotal)}`}`,
        `ids ${num(c.recordIds.length)}/${num(c.recordIdsTotal)}`, `snapshot ${esc(v.snapshot)}`,
        `regions ${c.regions.map((r) => esc(r.id)).join(", ")}`);
      if (w?.next !== undefined) parts.push(`<button type="button" id="nextwin" data-offset="${w.next}" data-limit="${w.limit}">Next window ›</button>`);
    } else if (v?.error) parts.push(`error <code>${esc(v.error.code)}</code>`);
    $("#stats").innerHTML = parts.join(" · ");
  }

  $("#req").addEventListener("submit", (e) => {
    e.preventDefault();
    const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
    request = {};
    for (const k of ["offset", "limit"]) if (String(f.get(k)).trim() !== "") request[k] = Number(f.get(k));
    const rec = String(f.get("record")).split(/[\s,]+/).filter(Boolean);
    if (rec.length) request.record = rec;
    refresh();
  });
  $("#run").addEventListener("click", () => runScript());
  $("#stats").addEventListener("click", (e) => {
    const b = /** @type {HTMLElement} */ (e.target);
    if (b.id !== "nextwin") return;
    request = { offset: Number(b.dataset.offset), limit: Number(b.dataset.limit) };
    const f = /** @type {HTMLFormElement} */ ($("#req"));
    f.offset.value = b.dataset.offset; f.limit.value = b.dataset.limit; f.record.value = "";
    refresh();
  });

  function step(title, req, res) {
    log.push({ title, req, res });
    const li = document.createElement("li");
    li.innerHTML = `<b>${esc(title)}</b> <code>${esc(JSON.stringify(req))}</code><pre class="json">${jsonHTML(res)}</pre>`;
    $("#log").append(li);
  }

  /**
   * runScript is a tiny agent: it lists ids, pages through the window, opens
   * a record by id, ships it and shows the after; then it shows the error
   * for record combined with limit. It returns its log.
   */
  async function runScript() {
    $("#log").innerHTML = "";
    log.length = 0;
    const d0 = await pinhole.describe({});
    step(`describe: ${d0.context.recordIds.length} of ${d0.context.recordIdsTotal} ids, window ${JSON.stringify(d0.context.recordWindow ?? null)}`,
      {}, { recordIds: d0.context.recordIds, recordWindow: d0.context.recordWindow });
    const seen = [...d0.context.records];
    let next = d0.context.recordWindow?.next;
    for (let pages = 0; next !== undefined && pages < 2; pages++) {
      const req = { offset: next, limit: d0.limits.defaultLimit };
      const d = await pinhole.describe(req);
      step(`page at offset ${next}: ${d.context.records.length} records`, req, { records: d.context.records.map((r) => r.id), recordWindow: d.context.recordWindow });
      seen.push(...d.context.records);
      next = d.context.recordWindow?.next;
    }
    const target = seen.find((r) => r.fields.status === "Ready to ship");
    if (!target) { step("no order is ready to ship", {}, null); return log; }
    const one = await pinhole.describe({ record: [target.id] });
    step(`open ${target.id} by id`, { record: [target.id] }, one.context.records);
    const exec = { capability: "order.ship", record: target.id, input: { carrier: "ups" }, snapshot: one.snapshot };
    const res = await pinhole.execute(exec);
    step(`execute order.ship on ${target.id}`, exec, res);
    const bad = { record: [target.id], limit: 8 };
    let err;
    try { err = await pinhole.describe(bad); } catch (e) { err = { error: errorOf(e) }; }
    step("record with limit is refused", bad, err);
    await refresh();
    return log;
  }

  pinhole.subscribe(() => refresh());
  const ready = refresh();
  return {
    refresh, runScript, ready,
    get last() { return last; },
    /** The overview's figures: rows and sensitive values of the DOM snapshot, ids and sensitive values of the context. */
    get overview() { return overview; },
    setRequest(r) { request = r; return refresh(); },
  };
}

/**
 * groupReasons folds unavailable entries that share a capability and a
 * reason into one, with the records it concerns.
 * @param {{capability: string, record?: string, reason: string}[]} list
 */
function groupReasons(list) {
  /** @type {Map<string, {capability: string, reason: string, records: string[]}>} */
  const groups = new Map();
  for (const u of list) {
    const key = JSON.stringify([u.capability, u.reason]);
    if (!groups.has(key)) groups.set(key, { capability: u.capability, reason: u.reason, records: [] });
    if (u.record !== undefined) groups.get(key).records.push(u.record);
  }
  return [...groups.values()];
}

/** markLeaks escapes text and wraps every occurrence of the given values in <mark class="leak">. */
function markLeaks(text, values) {
  if (!values.length) return esc(text);
  const re = new RegExp(values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).sort((a, b) => b.length - a.length).join("|"), "g");
  let out = "", at = 0;
  for (const m of text.matchAll(re)) {
    out += esc(text.slice(at, m.index)) + `<mark class="leak">${esc(m[0])}</mark>`;
    at = m.index + m[0].length;
  }
  return out + esc(text.slice(at));
}

/** errorOf turns a thrown bridge error into the wire's error object. */
function errorOf(err) {
  return err?.code ? { code: err.code, message: err.message, ...(err.param ? { param: err.param } : {}) } : { code: "bridge", message: String(err?.message ?? err) };
}
