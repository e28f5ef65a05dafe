// The baseline users would write instead of Pinhole: a straightforward,
// hand-written JavaScript projection of the orders manifest
// (testdata/orders/manifest.json), answering describe requests in the same
// shape as the module: the same 8 fields, the e-mail masked, the phone
// aliased and the card turned into a placeholder (HMAC-SHA-256 with the
// session key, through WebCrypto so the same code runs in Node and in the
// browser, memoised per value), the same regions, capabilities, reasons,
// totals, window of 8, 1,000 ids, field limits and response cap.
//
// What it does not do (and Pinhole does): no credential safety net over
// outgoing strings, no removal of invisible or bidirectional characters, no
// snapshots or `after` observations, no validation of the manifest (it is
// written for this one manifest), no execute-time checks, and it reads the
// whole store object, so nothing keeps undeclared data out of its reach.

const MAX_RECORD_IDS = 1000;
const DEFAULT_LIMIT = 8;
const MAX_LIMIT = 50;
const MAX_FIELD_CHARS = 512;
const MAX_FEEDBACK = 20;
const MAX_UNAVAILABLE = 20;
const MAX_RESPONSE_BYTES = 65536;
const LIMITS = {
  defaultLimit: DEFAULT_LIMIT, maxLimit: MAX_LIMIT, maxRecordSelection: 20, maxRecordIds: MAX_RECORD_IDS,
  maxFieldChars: MAX_FIELD_CHARS, maxFeedback: MAX_FEEDBACK, maxUnavailable: MAX_UNAVAILABLE,
  maxResponseBytes: MAX_RESPONSE_BYTES,
};
const EMPTY_INPUT = { type: "object", properties: {}, additionalProperties: false };
const CAPABILITIES = [
  { name: "order.ship", description: "Ship one order", scope: "record", region: "orders",
    input: { type: "object", properties: { carrier: { type: "string", enum: ["ups", "dhl"] } },
      required: ["carrier"], additionalProperties: false } },
  { name: "order.open", description: "Open the order in the side panel", scope: "record", region: "orders", input: EMPTY_INPUT },
  { name: "order.refund", description: "Refund the order shown in the side panel", scope: "page", region: "order-detail",
    input: { type: "object", properties: { amount: { type: "number", minimum: 0.01 } }, required: ["amount"] } },
  { name: "orders.export", description: "Export the list as CSV", scope: "page", region: "orders", input: EMPTY_INPUT },
  { name: "order.charge", description: "Charge the order's card on file again", scope: "record", region: "orders",
    input: { type: "object", properties: {
      card: { type: "string", description: "The order's card placeholder, as the context shows it", "x-pinhole-token": { field: "card" } },
      amount: { type: "number", minimum: 0.01, maximum: 1000 } }, required: ["card", "amount"], additionalProperties: false } },
  { name: "orders.view", description: "Filter and sort the list, as the console's Status and Sort controls do", scope: "page", region: "orders",
    input: { type: "object", properties: {
      filter: { type: "string", enum: ["all", "Ready to ship", "Awaiting payment", "Shipped", "On hold", "Delivered"] },
      sort: { type: "string", enum: ["-created", "customer", "-total"] } }, additionalProperties: false } },
];
const SHIP_REASON = "Only orders that are ready to ship can be shipped";
const LEVELS = new Set(["error", "warning", "info", "success"]);
const SOURCES = new Set(["app", "server", "user", "system", "validation"]);
const B32 = "abcdefghijklmnopqrstuvwxyz234567";

/** cut applies a character limit to a string; returns [value, originalLength | 0]. */
function cut(s, max) {
  return s.length > max ? [s.slice(0, max), s.length] : [s, 0];
}

/** mask keeps an e-mail's first letter and domain, or a number's last 4 digits. */
function mask(s) {
  const at = s.lastIndexOf("@");
  if (at > 0 && at < s.length - 1 && !/\s/.test(s)) {
    const d = s.slice(at + 1);
    return s[0] + "***@" + (d.length <= 64 && d.includes(".") && /^[A-Za-z0-9.-]+$/.test(d) ? d : "•••");
  }
  if (/[^0-9 \-+().]/.test(s)) return "•••";
  const digits = s.replace(/[^0-9]/g, "");
  return digits.length < 8 ? "•••" : "•••• " + digits.slice(-4);
}

/** validId reports whether an item's id may be referenced (string or integer, 1..128 chars, no controls). */
function validId(v) {
  if (Number.isInteger(v)) v = String(v);
  // eslint-disable-next-line no-control-regex
  return typeof v === "string" && v.length >= 1 && v.length <= 128 && !/[\u0000-\u001f\u007f-\u009f]/.test(v) ? v : null;
}

/**
 * createHandwritten returns a projector for one session key.
 * @param {string} key the session key (aliases and placeholders)
 */
export function createHandwritten(key) {
  const enc = new TextEncoder();
  /** @type {Promise<CryptoKey>} */
  const hmacKey = globalThis.crypto.subtle.importKey("raw", enc.encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  /** memo: "al:" + value → alias, "ph:" + value → token (aliases must be stable within a session anyway). */
  const memo = new Map();
  let lastState = null;
  let seq = 0;

  /** token derives a stable pseudonym of value with prefix ("al_" or "ph_"). */
  async function token(prefix, value) {
    const k = prefix + value;
    let t = memo.get(k);
    if (t === undefined) {
      const mac = new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", await hmacKey, enc.encode(k)));
      t = prefix;
      for (let i = 0, bits = 0, acc = 0; t.length < prefix.length + 24; i++) {
        acc = (acc << 8) | mac[i];
        bits += 8;
        while (bits >= 5 && t.length < prefix.length + 24) t += B32[(acc >>> (bits -= 5)) & 31];
      }
      memo.set(k, t);
    }
    return t;
  }

  /** record projects one order: the declared fields, exposure applied. */
  async function record(o, id) {
    const fields = {};
    const truncated = {};
    let cutAny = false;
    const str = (name, v, max) => {
      const [s, n] = cut(v, max);
      if (n) { truncated[name] = n; cutAny = true; }
      return s;
    };
    const plain = (name, v) => (typeof v === "string" ? str(name, v, MAX_FIELD_CHARS) : v);
    const c = o.customer;
    if (c && typeof c.name === "string") fields.customer = str("customer", c.name, 80);
    else if (c && c.name !== undefined) fields.customer = c.name;
    if (o.status !== undefined) fields.status = plain("status", o.status);
    if (o.totals && o.totals.grand !== undefined) fields.total = plain("total", o.totals.grand);
    if (o.items !== undefined) fields.items = plain("items", o.items);
    if (c && typeof c.email === "string") fields.email = mask(c.email);
    if (c && typeof c.phone === "string") fields.phone = await token("al_", c.phone);
    if (o.payment && typeof o.payment.card === "string") fields.card = { $placeholder: await token("ph_", o.payment.card) };
    if (o.note !== undefined) fields.note = plain("note", o.note);
    const r = { id, region: "orders", fields };
    if (cutAny) r.truncated = truncated;
    r.userContent = ["note"];
    return r;
  }

  /**
   * describe answers a describe request ({}, {offset, limit}, or {record: [...]}) as JSON text.
   * @param {any} s the whole store state
   * @param {{offset?: number, limit?: number, record?: string[]}} [req]
   * @returns {Promise<string>}
   */
  async function describe(s, req = {}) {
    if (s !== lastState) { lastState = s; seq++; }
    if (req.record && (req.offset !== undefined || req.limit !== undefined)) {
      return JSON.stringify({ error: { code: "record_with_window", message: "record cannot be combined with offset or limit", param: "record" } });
    }
    const limit = req.limit ?? DEFAULT_LIMIT;
    const offset = req.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      return JSON.stringify({ error: { code: "limit_exceeds_max", message: `limit must be 1..${MAX_LIMIT}`, param: "limit" } });
    }
    const detail = s.ui?.detailOpen === true;
    const manager = s.session?.role === "manager";
    const items = Array.isArray(s.orders?.items) ? s.orders.items : [];

    // Referenceable records: valid, unique ids, in store order.
    const seen = new Set();
    const refs = [];
    for (let i = 0; i < items.length; i++) {
      const o = items[i];
      const id = o && typeof o === "object" ? validId(o.number) : null;
      if (id === null || seen.has(id)) continue;
      seen.add(id);
      refs.push(i);
    }
    const ids = [];
    for (let i = 0; i < refs.length && i < MAX_RECORD_IDS; i++) ids.push(String(items[refs[i]].number));

    let chosen;
    if (req.record) {
      chosen = [];
      for (const id of req.record) {
        const i = refs.find((j) => String(items[j].number) === id);
        if (i === undefined) return JSON.stringify({ error: { code: "unknown_record", message: "record names an id that is not referenceable now", param: "record" } });
        chosen.push(i);
      }
    } else {
      chosen = refs.slice(offset, offset + limit);
    }
    const records = [];
    for (const i of chosen) records.push(await record(items[i], String(items[i].number)));

    const page = {};
    if (s.router?.path !== undefined) page.route = s.router.path;
    if (s.router?.title !== undefined) page.title = s.router.title;
    const q = s.router?.query;
    if (q && ["string", "number", "boolean"].includes(typeof q.status)) page.params = { status: q.status };

    const regions = [{ id: "orders", description: "Open sales orders" }];
    if (detail) regions.push({ id: "order-detail", parent: "orders", description: "The order in the side panel" });
    const active = new Set(regions.map((r) => r.id));
    const capabilities = CAPABILITIES.filter((c) => active.has(c.region));

    const toasts = Array.isArray(s.ui?.toasts) ? s.ui.toasts : [];
    const feedback = [];
    for (const t of toasts.slice(0, MAX_FEEDBACK)) {
      if (typeof t?.message !== "string") continue;
      feedback.push({ level: LEVELS.has(t.kind) ? t.kind : "info", text: cut(t.message, MAX_FIELD_CHARS)[0],
        source: SOURCES.has(t.origin) ? t.origin : "unknown" });
    }
    const unavailable = [];
    if (detail && !manager) unavailable.push({ capability: "order.refund", reason: "Only managers can refund" });
    if (!manager) unavailable.push({ capability: "orders.export", reason: "Only managers can export" });
    for (const r of records) {
      if (r.fields.status !== "Ready to ship") unavailable.push({ capability: "order.ship", record: r.id, reason: SHIP_REASON });
    }
    const state = {
      filter: s.orders?.filter ?? null, sort: s.orders?.sort ?? null, selected: s.ui?.selected ?? null,
    };
    const window = req.record ? undefined : { offset, limit, returned: records.length, total: refs.length };
    if (window && offset + records.length < refs.length) window.next = offset + records.length;
    const context = { page, regions, records, recordIds: ids, recordIdsTotal: refs.length };
    if (window && (records.length < refs.length || req.offset !== undefined || req.limit !== undefined)) context.recordWindow = window;
    Object.assign(context, {
      recordsTotal: items.length, state, feedback, feedbackTotal: toasts.length,
      unavailable: unavailable.slice(0, MAX_UNAVAILABLE), unavailableTotal: unavailable.length,
    });
    const out = { snapshot: "s" + seq, limits: LIMITS, capabilities, context };
    let text = JSON.stringify(out);
    // The response cap: drop records from the end of the window until it fits.
    while (text.length > MAX_RESPONSE_BYTES && records.length) {
      records.pop();
      if (context.recordWindow) {
        context.recordWindow.returned = records.length;
        context.recordWindow.next = offset + records.length;
      }
      text = JSON.stringify(out);
    }
    return text;
  }

  return { describe };
}
