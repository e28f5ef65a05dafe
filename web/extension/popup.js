// The popup: asks the content script of the current tab (or of ?tab=ID) for
// the context, shows it, and runs one capability on request.

/** esc escapes text for HTML (ids and names come from the page). */
const esc = (v) => String(v).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const $ = (id) => /** @type {any} */ (document.getElementById(id));
let tabId = 0;
/** @type {any} */
let ctx = null;

/** send relays one request to the content script of the target tab. */
const send = (pinhole, request) => chrome.tabs.sendMessage(tabId, { pinhole, request });

async function load() {
  ctx = await send("describe", {});
  $("context").textContent = JSON.stringify(ctx, null, 2);
  if (ctx?.error) { $("status").textContent = `error: ${ctx.error.code}`; return; }
  const c = ctx.context;
  $("status").textContent = `${c.page?.title ?? "page"} · snapshot ${ctx.snapshot} · ${c.recordsTotal} records, ${c.records.length} shown`;
  const keep = [$("capability").value, $("record").value];
  $("capability").innerHTML = ctx.capabilities.map((k) => `<option value="${esc(k.name)}" data-scope="${esc(k.scope)}">${esc(k.name)}</option>`).join("");
  $("record").innerHTML = c.recordIds.map((id) => `<option>${esc(id)}</option>`).join("");
  if (keep[0]) $("capability").value = keep[0];
  if (keep[1]) $("record").value = keep[1];
}

$("run").addEventListener("click", async () => {
  const cap = $("capability").selectedOptions[0];
  let input;
  try { input = JSON.parse($("input").value || "{}"); } catch { $("result").hidden = false; $("result").textContent = "input is not JSON"; return; }
  const req = { capability: cap.value, input, snapshot: ctx.snapshot, ...(cap.dataset.scope === "record" ? { record: $("record").value } : {}) };
  const res = await send("execute", req);
  $("result").hidden = false;
  $("result").textContent = JSON.stringify(res, null, 2);
  document.body.dataset.ran = "true";
  await load();
});

(async () => {
  const q = Number(new URLSearchParams(location.search).get("tab"));
  tabId = q || (await chrome.tabs.query({ active: true, currentWindow: true }))[0]?.id;
  await load().catch((err) => { $("status").textContent = `no Pinhole page here (${err.message})`; });
  document.body.dataset.loaded = "true";
})();
