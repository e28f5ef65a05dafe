// The extension channel with Node's real MessageChannel and a window-like
// EventTarget that delivers postMessage as a browser does (same-window
// source, the sender's origin, target-origin filtering, transferred ports).
import test from "node:test";
import assert from "node:assert/strict";
import { createPinhole } from "../src/index.js";
import { connectFromContentScript, exposeToExtension, DEFAULT_MAX_PORTS } from "../src/extension.js";
import { WASM, MANIFEST, noteManifest, ordersState, plainStore, settle, setStatus } from "./helpers.js";

class PageWindow extends EventTarget {
  constructor(origin = "https://shop.example") {
    super();
    this.location = { origin };
    /** @type {{data: any, targetOrigin: string}[]} */
    this.posted = [];
    /** Message listeners registered now. */
    this.listening = 0;
  }

  /** @param {string} type @param {any} l @param {any} [o] */
  addEventListener(type, l, o) {
    if (type === "message") this.listening++;
    super.addEventListener(type, l, o);
  }

  /** @param {string} type @param {any} l @param {any} [o] */
  removeEventListener(type, l, o) {
    if (type === "message") this.listening--;
    super.removeEventListener(type, l, o);
  }

  /** @param {any} data @param {string} targetOrigin @param {any[]} [transfer] */
  postMessage(data, targetOrigin, transfer = []) {
    this.posted.push({ data, targetOrigin });
    this.deliver(data, this.location.origin, this, transfer, targetOrigin);
  }

  /** deliver dispatches a message event; a forger may choose origin and source. */
  deliver(/** @type {any} */ data, /** @type {string} */ origin, /** @type {any} */ source, /** @type {any[]} */ ports = [], targetOrigin = "*") {
    if (targetOrigin !== "*" && targetOrigin !== this.location.origin) return;
    const ev = new Event("message");
    Object.assign(ev, { data: structuredClone(data), origin, source, ports });
    setTimeout(() => this.dispatchEvent(ev), 0);
  }
}

async function setup() {
  const win = new PageWindow();
  const store = plainStore(ordersState());
  const p = await createPinhole({
    wasm: WASM, manifest: MANIFEST, store,
    actions: { "order.open": () => store.setState((s) => ({ ...s, ui: { ...s.ui, detailOpen: true } })) },
  });
  const h = p.exposeToExtension({ window: /** @type {any} */ (win) });
  return { win, store, p, h };
}

test("handshake, describe, execute and snapshot events over the port", async () => {
  const { win, store, p } = await setup();
  const client = await connectFromContentScript({ window: /** @type {any} */ (win) });
  const d = /** @type {any} */ (await client.describe({ limit: 1 }));
  assert.equal(d.context.recordsTotal, 48);
  /** @type {any[]} */
  const events = [];
  client.subscribe((e) => events.push(e));
  store.setState((s) => setStatus(s, 0, "Shipped"));
  await settle();
  await settle();
  assert.deepEqual(events, [{ snapshot: "s2", recordsTotal: 48 }]);
  const r = /** @type {any} */ (await client.execute({ capability: "order.open", record: "SO-1001", snapshot: "s2" }));
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.ok(win.posted.every((m) => m.targetOrigin === "https://shop.example"), "never posted with target origin *");
  assert.deepEqual(win.posted.map((m) => m.data.pinhole), ["hello", "welcome"], "answers go over the port, not the window");
  client.close();
  p.dispose();
});

test("forged senders get no answer: another source, another origin, a bad nonce", async () => {
  const { win, p } = await setup();
  const other = new EventTarget();
  const hello = { pinhole: "hello", channel: "pinhole", nonce: "0123456789abcdef", v: 1 };
  win.deliver(hello, "https://shop.example", other); // an iframe or another window
  win.deliver(hello, "https://evil.example", win); // a foreign origin
  win.deliver({ ...hello, nonce: "short" }, "https://shop.example", win);
  win.deliver({ ...hello, channel: "other" }, "https://shop.example", win);
  await settle();
  await settle();
  assert.equal(win.posted.filter((m) => m.data.pinhole === "welcome").length, 0);
  win.deliver(hello, "https://shop.example", win);
  await settle();
  await settle();
  assert.equal(win.posted.filter((m) => m.data.pinhole === "welcome").length, 1, "the genuine hello is answered");
  p.dispose();
});

test("the client ignores a forged welcome and times out", async () => {
  const win = new PageWindow();
  const pending = connectFromContentScript({ window: /** @type {any} */ (win), timeoutMs: 50 });
  const nonce = win.posted[0].data.nonce;
  const mc = new MessageChannel();
  win.deliver({ pinhole: "welcome", channel: "pinhole", nonce, v: 1 }, "https://evil.example", win, [mc.port2]);
  await assert.rejects(pending, /did not answer/);
  mc.port1.close();
});

test("dispose closes the ports and stops answering", async () => {
  const { win, p } = await setup();
  const client = await connectFromContentScript({ window: /** @type {any} */ (win) });
  p.dispose();
  await settle();
  const r = /** @type {any} */ (await client.describe());
  assert.equal(r.error.code, "not_loaded");
  await assert.rejects(connectFromContentScript({ window: /** @type {any} */ (win), timeoutMs: 50 }), /did not answer/);
});

test("without a window (Node) nothing is exposed, and the handle says why", async () => {
  assert.equal(/** @type {any} */ (globalThis).window, undefined, "this file runs without a global window");
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()) });
  const h = p.exposeToExtension();
  assert.equal(h.exposed, false);
  assert.match(h.reason ?? "", /no window/);
  h.dispose(); // a no-op, and safe
  // A window passed explicitly is served, and its handle says so.
  const win = new PageWindow();
  const served = p.exposeToExtension({ window: /** @type {any} */ (win) });
  assert.equal(served.exposed, true);
  assert.equal(served.reason, undefined);
  assert.equal(win.listening, 1);
  // One that cannot serve is refused, not ignored; so are bad options,
  // window or not.
  assert.throws(() => p.exposeToExtension({ window: /** @type {any} */ ({}) }), /no window/);
  assert.throws(() => p.exposeToExtension({ maxPorts: 0 }), RangeError);
  assert.equal(p.exposeToExtension({ window: /** @type {any} */ (null) }).exposed, false, "null is no window");
  p.dispose();
  assert.equal(win.listening, 0);
});

test("an opaque origin is refused", async () => {
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()) });
  assert.throws(() => p.exposeToExtension({ window: /** @type {any} */ (new PageWindow("null")) }), /opaque origin/);
  p.dispose();
});

/**
 * countingBridge is an AgentSurface that counts its live snapshot listeners.
 * @returns {any}
 */
function countingBridge() {
  /** @type {Set<any>} */
  const listeners = new Set();
  return {
    listeners,
    limits: {},
    describe: async () => ({ error: { code: "not_loaded", message: "test bridge" } }),
    describeText: async () => "{}",
    execute: async () => ({ error: { code: "not_loaded", message: "test bridge" } }),
    subscribe(/** @type {any} */ l) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
}

/** Waits until cond() holds, settling between looks (bounded). @param {() => boolean} cond */
async function until(cond) {
  for (let i = 0; i < 200 && !cond(); i++) await settle();
  return cond();
}

test("2,000 handshakes keep at most maxPorts ports; the oldest hears why it was closed", async (t) => {
  const win = new PageWindow();
  const bridge = countingBridge();
  const h = exposeToExtension(bridge, { window: /** @type {any} */ (win) });
  /** @type {any[]} */
  const clients = [];
  t.after(() => {
    h.dispose();
    for (const c of clients) c.close();
  });
  for (let i = 0; i < 2000; i += 100) {
    const batch = [];
    for (let j = 0; j < 100; j++) batch.push(connectFromContentScript({ window: /** @type {any} */ (win) }));
    clients.push(...(await Promise.all(batch)));
  }
  assert.equal(clients.length, 2000);
  assert.equal(bridge.listeners.size, DEFAULT_MAX_PORTS, "one snapshot listener per open port, at most the bound");
  const first = await clients[0].describe();
  assert.equal(first.error.code, "not_loaded");
  assert.match(first.error.message, /bounded number of open channels/);
  const last = await clients[1999].describe();
  assert.equal(last.error.message, "test bridge", "the newest port is served");
  h.dispose();
  assert.equal(bridge.listeners.size, 0, "dispose releases every listener");
  assert.equal(win.listening, 0, "dispose removes the window listener");
  const after = await clients[1999].describe();
  assert.equal(after.error.message, "the page closed the channel");
});

test("maxPorts is an integer from 1 to 1024", () => {
  const win = /** @type {any} */ (new PageWindow());
  for (const maxPorts of [0, -1, 1.5, 1025, NaN]) {
    assert.throws(() => exposeToExtension(countingBridge(), { window: win, maxPorts }), /maxPorts/);
  }
  exposeToExtension(countingBridge(), { window: win, maxPorts: 1 }).dispose();
});

test("a port is released when its client closes it or disconnects", async (t) => {
  const win = new PageWindow();
  const bridge = countingBridge();
  const h = exposeToExtension(bridge, { window: /** @type {any} */ (win), maxPorts: 4 });
  t.after(() => h.dispose());
  const client = await connectFromContentScript({ window: /** @type {any} */ (win) });
  assert.equal(bridge.listeners.size, 1);
  client.close();
  assert.ok(await until(() => bridge.listeners.size === 0), "close releases the port's listener");
  // A content script that goes away without a word: its end of the port is closed.
  /** @type {MessagePort[]} */
  const got = [];
  win.addEventListener("message", (/** @type {any} */ e) => {
    if (e.data?.pinhole === "welcome") got.push(e.ports[0]);
  });
  win.deliver({ pinhole: "hello", channel: "pinhole", nonce: "0123456789abcdef", v: 1 }, win.location.origin, win);
  assert.ok(await until(() => got.length === 1));
  assert.equal(bridge.listeners.size, 1);
  got[0].close();
  assert.ok(await until(() => bridge.listeners.size === 0), "a disconnected port is released");
});

test("the exact __proto__ attack over the channel is invalid_input; the handler never runs", async (t) => {
  const win = new PageWindow();
  /** @type {any[]} */
  const ran = [];
  const p = await createPinhole({
    wasm: WASM, manifest: noteManifest(), store: plainStore(ordersState()),
    actions: { "orders.note": (/** @type {any} */ req) => void ran.push(Object.assign({}, req.input).polluted) },
  });
  t.after(() => p.dispose());
  p.exposeToExtension({ window: /** @type {any} */ (win) });
  const client = await connectFromContentScript({ window: /** @type {any} */ (win) });
  const d = /** @type {any} */ (await client.describe({ limit: 1 }));
  const input = JSON.parse('{"__proto__":{"polluted":1}}');
  const r = /** @type {any} */ (await client.execute({ capability: "orders.note", input, snapshot: d.snapshot }));
  assert.deepEqual([r.error?.code, r.error?.param], ["invalid_input", "/__proto__"], JSON.stringify(r));
  assert.deepEqual(ran, []);
  const ok = /** @type {any} */ (await client.execute({ capability: "orders.note", input: { text: "hi" }, snapshot: d.snapshot }));
  assert.equal(ok.ok, true, JSON.stringify(ok));
  assert.deepEqual(ran, [undefined]);
  client.close();
});
