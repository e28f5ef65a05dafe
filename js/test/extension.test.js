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
  // The client may say its hello twice: the page's ready can reach it after its first.
  assert.deepEqual([...new Set(win.posted.map((m) => m.data.pinhole))], ["ready", "hello", "welcome"], "answers go over the port, not the window");
  assert.equal(win.posted.filter((m) => m.data.pinhole === "welcome").length, 1);
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

/** The messages of a kind the window carried. @param {PageWindow} win @param {string} kind */
const posted = (win, kind) => win.posted.filter((m) => m.data.pinhole === kind);

test("a client that says hello before the page listens is answered when the page exposes, long before its timeout", async (t) => {
  const win = new PageWindow();
  const started = Date.now();
  const pending = connectFromContentScript({ window: /** @type {any} */ (win), timeoutMs: 5000 });
  await settle();
  await settle(); // the first hello has been dispatched to nobody
  const bridge = countingBridge();
  const h = exposeToExtension(bridge, { window: /** @type {any} */ (win) });
  t.after(() => h.dispose());
  assert.deepEqual(posted(win, "ready").map((m) => [m.data, m.targetOrigin]),
    [[{ pinhole: "ready", channel: "pinhole", v: 1 }, "https://shop.example"]], "ready, to the page's own origin");
  const client = await pending;
  const waited = Date.now() - started;
  assert.ok(waited < 900, `answered after ${waited} ms: on ready, not by a timed repeat or the timeout`);
  const hellos = posted(win, "hello");
  assert.equal(hellos.length, 2, "the hello, and the same hello again on ready");
  assert.equal(hellos[1].data.nonce, hellos[0].data.nonce);
  assert.equal(posted(win, "welcome").length, 1);
  assert.equal(bridge.listeners.size, 1);
  assert.equal((/** @type {any} */ (await client.describe())).error.message, "test bridge", "the port serves");
  client.close();
});

test("a hello that races the page's start is answered once: a repeated nonce gets no second welcome or port", async (t) => {
  const win = new PageWindow();
  const bridge = countingBridge();
  // The client's hello is on its way when the page starts listening: the
  // page answers it, and the client's repeat on ready finds it answered.
  const pending = connectFromContentScript({ window: /** @type {any} */ (win) });
  const h = exposeToExtension(bridge, { window: /** @type {any} */ (win) });
  t.after(() => h.dispose());
  const client = await pending;
  assert.ok(await until(() => posted(win, "hello").length === 2), "the client said its hello again on ready");
  await settle();
  await settle();
  assert.equal(posted(win, "welcome").length, 1, "one welcome");
  assert.equal(bridge.listeners.size, 1, "one port");
  // A hello repeated by hand, at once and after a while: still one port.
  const hello = { pinhole: "hello", channel: "pinhole", nonce: "fedcba9876543210", v: 1 };
  win.deliver(hello, win.location.origin, win);
  win.deliver(hello, win.location.origin, win);
  assert.ok(await until(() => posted(win, "welcome").length === 2));
  win.deliver(hello, win.location.origin, win);
  await settle();
  await settle();
  assert.equal(posted(win, "welcome").length, 2, "a nonce is answered once");
  assert.equal(bridge.listeners.size, 2);
  // Also once its port is closed: a repeat then would open a port nobody takes.
  client.close();
  assert.ok(await until(() => bridge.listeners.size === 1));
  win.deliver({ ...hello, nonce: posted(win, "hello")[0].data.nonce }, win.location.origin, win);
  await settle();
  await settle();
  assert.equal(posted(win, "welcome").length, 2);
  assert.equal(bridge.listeners.size, 1);
});

test("a ready from another source, origin or channel, or of another version, makes the client say nothing", async () => {
  const win = new PageWindow();
  const pending = connectFromContentScript({ window: /** @type {any} */ (win), timeoutMs: 400 });
  const ready = { pinhole: "ready", channel: "pinhole", v: 1 };
  win.deliver(ready, "https://shop.example", new EventTarget()); // another frame
  win.deliver(ready, "https://evil.example", win); // another origin
  win.deliver({ ...ready, channel: "other" }, "https://shop.example", win);
  win.deliver({ ...ready, v: 2 }, "https://shop.example", win);
  win.deliver("ready", "https://shop.example", win);
  await settle();
  await settle();
  assert.equal(posted(win, "hello").length, 1, "only the first hello");
  // The page's own ready, by contrast, brings the same hello again.
  win.deliver(ready, "https://shop.example", win);
  assert.ok(await until(() => posted(win, "hello").length === 2));
  assert.equal(posted(win, "hello")[1].data.nonce, posted(win, "hello")[0].data.nonce);
  assert.ok(win.posted.every((m) => m.targetOrigin === "https://shop.example"), "never posted with target origin *");
  await assert.rejects(pending, /did not answer/);
  // And a page ignores a ready: it answers nothing to one.
  const bridge = countingBridge();
  const h = exposeToExtension(bridge, { window: /** @type {any} */ (win) });
  const before = win.posted.length;
  win.deliver(ready, "https://shop.example", win);
  await settle();
  await settle();
  assert.equal(win.posted.length, before);
  assert.equal(bridge.listeners.size, 0);
  h.dispose();
});

test("without a ready the client says its hello again after 1 s, and stops once welcomed", async (t) => {
  const win = new PageWindow();
  const pending = connectFromContentScript({ window: /** @type {any} */ (win), timeoutMs: 3000 });
  await settle();
  // A page whose bridge predates ready: it listens, says nothing.
  const bridge = countingBridge();
  /** @type {any} */
  let h;
  t.after(() => h?.dispose());
  const real = win.postMessage.bind(win);
  win.postMessage = (/** @type {any} */ data, /** @type {string} */ to, /** @type {any[]} */ tr) => {
    if (data?.pinhole !== "ready") real(data, to, tr);
  };
  h = exposeToExtension(bridge, { window: /** @type {any} */ (win) });
  const started = Date.now();
  const client = await pending;
  const waited = Date.now() - started;
  assert.ok(waited >= 800 && waited < 2500, `answered after ${waited} ms, by the repeat at 1 s`);
  assert.equal(posted(win, "hello").length, 2);
  await new Promise((r) => setTimeout(r, 1200));
  assert.equal(posted(win, "hello").length, 2, "no repeat once welcomed");
  client.close();
});

test("a pending call settles when the page's end of the port goes away without a word", async () => {
  const win = new PageWindow();
  /** @type {MessagePort | undefined} */
  let pagePort;
  // A page that answers the handshake, takes requests and then vanishes
  // (navigated away, crashed): its port closes, no "closed" is sent.
  win.addEventListener("message", (/** @type {any} */ e) => {
    if (e.data?.pinhole !== "hello" || pagePort) return;
    const mc = new MessageChannel();
    pagePort = mc.port1;
    pagePort.onmessage = () => {}; // hears the request, never answers
    win.postMessage({ pinhole: "welcome", channel: "pinhole", nonce: e.data.nonce, v: 1 }, win.location.origin, [mc.port2]);
  });
  const client = await connectFromContentScript({ window: /** @type {any} */ (win) });
  const pending = client.describe({ limit: 1 });
  await settle();
  /** @type {MessagePort} */ (pagePort).close();
  const r = /** @type {any} */ (await Promise.race([pending, new Promise((res) => setTimeout(() => res("still pending"), 2000))]));
  assert.equal(r?.error?.code, "not_loaded", JSON.stringify(r));
  assert.match(r.error.message, /went away/);
  const after = /** @type {any} */ (await client.describe());
  assert.equal(after.error.code, "not_loaded", "later calls answer at once");
});

test("a window that delivers synchronously: once answered, the client says no more hellos", async () => {
  class SyncWindow extends PageWindow {
    /** @param {any} data @param {string} origin @param {any} source @param {any[]} [ports] @param {string} [targetOrigin] */
    deliver(data, origin, source, ports = [], targetOrigin = "*") {
      if (targetOrigin !== "*" && targetOrigin !== this.location.origin) return;
      const ev = new Event("message");
      Object.assign(ev, { data: structuredClone(data), origin, source, ports });
      this.dispatchEvent(ev);
    }
  }
  const win = new SyncWindow();
  const store = plainStore(ordersState());
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store });
  p.exposeToExtension({ window: /** @type {any} */ (win) });
  const client = await connectFromContentScript({ window: /** @type {any} */ (win) });
  const hellos = () => win.posted.filter((m) => m.data.pinhole === "hello").length;
  const before = hellos();
  await new Promise((r) => setTimeout(r, 1500)); // past the first timed repeat (1 s)
  assert.equal(hellos(), before, "no hello after the welcome");
  client.close();
  p.dispose();
});
