// The extension channel with Node's real MessageChannel and a window-like
// EventTarget that delivers postMessage as a browser does (same-window
// source, the sender's origin, target-origin filtering, transferred ports).
import test from "node:test";
import assert from "node:assert/strict";
import { createPinhole } from "../src/index.js";
import { connectFromContentScript } from "../src/extension.js";
import { WASM, MANIFEST, ordersState, plainStore, settle, setStatus } from "./helpers.js";

class PageWindow extends EventTarget {
  constructor(origin = "https://shop.example") {
    super();
    this.location = { origin };
    /** @type {{data: any, targetOrigin: string}[]} */
    this.posted = [];
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

test("an opaque origin is refused", async () => {
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()) });
  assert.throws(() => p.exposeToExtension({ window: /** @type {any} */ (new PageWindow("null")) }), /opaque origin/);
  p.dispose();
});
