// The agent panel: shows, live, the exact context an agent would receive for
// the next describe request, runs a small scripted agent against the bridge,
// and compares the context with a DOM snapshot of the same page.
import { domSnapshot, leaks, plantedValues } from "./domsnapshot.js";
import { jsonHTML } from "./jsonview.js";
import { esc } from "./view.js";

const bytes = (s) => new TextEncoder().encode(s).length;
const kb = (n) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`);

/**
 * mountPanel renders the agent panel into root.
 * @param {HTMLElement} root
 * @param {{pinhole: any, app: {store: any, backend: any}, consoleRoot: HTMLElement}} deps
 */
export function mountPanel(root, { pinhole, app, consoleRoot }) {
  /** The next describe request, as the agent would send it. */
  let request = {};
  let compare = false;
  let last = { text: "", value: /** @type {any} */ (null) };
  const log = [];

  root.innerHTML = `
<header><h2>Agent panel</h2>
  <label class="switch"><input type="checkbox" id="compare"> Compare with a DOM snapshot</label></header>
<form id="req" class="req">
  <label>offset <input name="offset" size="4" inputmode="numeric"></label>
  <label>limit <input name="limit" size="4" inputmode="numeric"></label>
  <label>record <input name="record" size="14" placeholder="SO-1002"></label>
  <button>Describe</button><button type="button" id="run">Run scripted agent</button>
</form>
<div class="nextreq">Next describe request: <code id="nextreq">{}</code></div>
<div id="stats" class="stats"></div>
<div id="views" class="views">
  <section><h3>Context the agent receives</h3><pre id="context" class="json"></pre></section>
  <section id="domside" hidden><h3>DOM snapshot of the same page</h3><pre id="dom" class="json dom"></pre></section>
</div>
<section><h3>Scripted agent</h3><ol id="log" class="log"></ol></section>`;
  const $ = (sel) => /** @type {HTMLElement} */ (root.querySelector(sel));

  async function refresh() {
    $("#nextreq").textContent = JSON.stringify(request);
    let value;
    try {
      value = await pinhole.describe(request);
    } catch (err) {
      value = { error: errorOf(err) };
    }
    last = { text: JSON.stringify(value), value };
    $("#context").innerHTML = jsonHTML(value);
    renderStats();
  }

  function renderStats() {
    const v = last.value;
    const c = v?.context;
    const parts = [`<b>${kb(bytes(last.text))}</b> context`];
    if (c) {
      const w = c.recordWindow;
      parts.push(`records ${w ? `${w.offset}–${w.offset + w.returned} of ${w.total}` : `${c.records.length} of ${c.recordsTotal}`}`,
        `ids ${c.recordIds.length}/${c.recordIdsTotal}`, `snapshot ${esc(v.snapshot)}`,
        `regions ${c.regions.map((r) => esc(r.id)).join(", ")}`);
      if (w?.next !== undefined) parts.push(`<button type="button" id="nextwin" data-offset="${w.next}" data-limit="${w.limit}">Next window ›</button>`);
    } else if (v?.error) parts.push(`error <code>${esc(v.error.code)}</code>`);
    if (compare) {
      const s = app.store.getState();
      const dom = domSnapshot(consoleRoot);
      const shown = new Set([...consoleRoot.querySelectorAll("[data-order]")].map((e) => e.dataset.order));
      if (s.ui.selected) shown.add(s.ui.selected);
      for (const r of c?.records ?? []) shown.add(r.id);
      const planted = plantedValues(s, [...shown].map((n) => app.backend.find(n)).filter(Boolean));
      const inDom = leaks(dom, planted), inCtx = leaks(last.text, planted);
      $("#dom").innerHTML = markLeaks(dom, inDom.map(([val]) => val));
      parts.push(`<br>DOM snapshot <b>${kb(bytes(dom))}</b>; sensitive values: <b class="bad">${inDom.length}</b> in the DOM snapshot, <b class="good">${inCtx.length}</b> in the context`);
      if (inDom.length) parts.push(`<details><summary>found in the DOM snapshot</summary><ul>${inDom.map(([val, what]) => `<li>${esc(what)}: <code>${esc(val.length > 40 ? val.slice(0, 37) + "…" : val)}</code></li>`).join("")}</ul></details>`);
    }
    $("#stats").innerHTML = parts.join(" · ");
  }

  $("#compare").addEventListener("change", (e) => {
    compare = /** @type {HTMLInputElement} */ (e.target).checked;
    $("#domside").hidden = !compare;
    root.classList.toggle("comparing", compare);
    renderStats();
  });
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
  refresh();
  return { refresh, runScript, get last() { return last; }, setRequest(r) { request = r; return refresh(); } };
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
