// The worker-hosted bridge's protocol, in Node: a stand-in for a browser's
// Worker runs the real worker script (src/worker.js) in this process and
// passes every message through structuredClone with its transfer list, as
// postMessage does. It proves what a page cannot easily show: the request
// bytes are transferred (the page's buffer is detached), the answers are the
// same bytes as in-thread, a trap in the worker and a failed worker are
// recovered, and the choice of host falls back only where it should.
// Chromium runs the real thing (web/examples/test/offthread.test.mjs).
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createPinhole, internals } from "../src/index.js";
import { WorkerHost } from "../src/host.js";
import { WASM, MANIFEST, KEY, ordersState, plainStore, setStatus, settle } from "./helpers.js";

const WORKER_SRC = new URL("../src/worker.js", import.meta.url).href;
const realPost = globalThis.postMessage;

/** Every buffer the page transferred to a worker, to check it was detached. @type {ArrayBuffer[]} */
const transferred = [];

/** FakeWorker runs src/worker.js in this process: one fresh copy of the script per worker. */
class FakeWorker {
  static made = 0;
  /** When set, the next worker fails to load, as a missing script does. */
  static failLoad = false;
  /** When set, the next Worker constructor throws, as a browser refusing the script does. */
  static refuse = false;
  /** How many of the workers' next messages to the page fail to post (DataCloneError). */
  static failPosts = 0;
  /** @param {string | URL} url @param {any} opts */
  constructor(url, opts) {
    if (FakeWorker.refuse) {
      FakeWorker.refuse = false;
      throw new DOMException(`Script at '${url}' cannot be accessed from this origin`, "SecurityError"); // as Chromium words it
    }
    FakeWorker.made++;
    assert.deepEqual(opts, { type: "module" });
    /** @type {any} */ this.onmessage = null;
    /** @type {any} */ this.onerror = null;
    /** @type {any} */ this.onmessageerror = null;
    this.terminated = false;
    const fail = FakeWorker.failLoad;
    FakeWorker.failLoad = false;
    this.handler = fail ? Promise.reject(new Error("404")) : (async () => {
      globalThis.postMessage = (/** @type {any} */ m, /** @type {any[]} */ t) => this.toPage(m, t);
      await import(`${WORKER_SRC}?worker=${FakeWorker.made}`);
      return /** @type {any} */ (globalThis).onmessage;
    })();
    this.handler.catch(() => setTimeout(() => this.onerror?.({ preventDefault() {} })));
  }
  /** @param {any} message @param {Transferable[]} [transfer] */
  postMessage(message, transfer = []) {
    for (const t of transfer) if (t instanceof ArrayBuffer) transferred.push(t);
    const data = structuredClone(message, { transfer });
    this.handler.then((h) => setTimeout(() => {
      if (this.terminated) return;
      try {
        h({ data });
      } catch {
        this.onerror?.({ preventDefault() {} });
      }
    }), () => {});
  }
  /** @param {any} message @param {Transferable[]} [transfer] */
  toPage(message, transfer = []) {
    if (FakeWorker.failPosts > 0) {
      FakeWorker.failPosts--;
      throw new DOMException("the message could not be cloned", "DataCloneError");
    }
    const data = structuredClone(message, { transfer });
    setTimeout(() => { if (!this.terminated) this.onmessage?.({ data }); });
  }
  terminate() {
    this.terminated = true;
  }
}

test.before(() => {
  /** @type {any} */ (globalThis).Worker = FakeWorker;
});
test.after(() => {
  delete (/** @type {any} */ (globalThis)).Worker;
  globalThis.postMessage = realPost;
});

/** @param {"main" | "worker"} host */
async function bridge(host, extra = {}) {
  const store = plainStore(ordersState());
  const audit = /** @type {any[]} */ ([]);
  const p = await createPinhole({
    wasm: pathToFileURL(WASM), manifest: MANIFEST, store, key: KEY, host, onAudit: (e) => audit.push(e), ...extra,
    actions: {
      "order.ship": (/** @type {any} */ req) => {
        const i = store.getState().orders.items.findIndex((/** @type {any} */ o) => o.number === req.record);
        store.setState((s) => setStatus(s, i, "Shipped"));
      },
    },
  });
  return { p, store, audit };
}

/** A script of agent calls; answers as text. @param {any} p @param {any} store */
async function script(p, store) {
  const out = [];
  out.push(await p.describeText({ limit: 3 }));
  store.setState((/** @type {any} */ s) => setStatus(s, 2, "Delivered"));
  await settle();
  const d = JSON.parse(await p.describeText({ record: ["SO-1001", "SO-1003"] }));
  out.push(JSON.stringify(d));
  out.push(JSON.stringify(await p.execute({ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot: d.snapshot })));
  return out;
}

test("worker-hosted answers are the in-thread answers, byte for byte; request buffers are transferred, not copied", async () => {
  const main = await bridge("main");
  const expected = await script(main.p, main.store);
  main.p.dispose();
  transferred.length = 0;
  const w = await bridge("worker");
  assert.equal(w.p.host, "worker");
  assert.equal(w.p[internals].instance.host, "worker");
  const got = await script(w.p, w.store);
  assert.deepEqual(got, expected);
  assert.ok(JSON.parse(got[2]).after, "execute answered with after");
  assert.ok(transferred.length > 5, `${transferred.length} buffers transferred`);
  assert.ok(transferred.every((b) => b.byteLength === 0), "every transferred buffer is detached on the page's side");
  w.p.dispose();
});

test("a store change made while the first observe is in the worker is synced", async () => {
  const store = plainStore(ordersState());
  let changed = false;
  const p = await createPinhole({
    wasm: pathToFileURL(WASM), manifest: MANIFEST, store, key: KEY, host: "worker",
    trace: (dir, text) => {
      if (dir === "in" && !changed && text.startsWith('{"op":"observe"')) {
        changed = true;
        queueMicrotask(() => store.setState((s) => setStatus(s, 4, "Delivered")));
      }
    },
  });
  await settle();
  assert.ok(changed);
  const d = /** @type {any} */ (await p.describe({ record: ["SO-1005"] }));
  assert.equal(d.context.records[0].fields.status, "Delivered");
  p.dispose();
});

test("a trap inside the worker is recovered in the same worker; a failed worker is replaced by a new one", async () => {
  const { p, store, audit } = await bridge("worker", { [internals]: { faults: true } });
  const before = /** @type {any} */ (await p.describe({ record: ["SO-1001"] }));
  const made = FakeWorker.made;
  await p[internals].instance.fault();
  store.setState((s) => setStatus(s, 1, "Shipped"));
  await settle();
  let d = /** @type {any} */ (await p.describe({ record: ["SO-1002"] }));
  assert.equal(d.context.records[0].fields.status, "Shipped", "the store's change reached the new instance");
  assert.equal(FakeWorker.made, made, "same worker");
  p[internals].instance.worker.postMessage({ t: "not a message" });
  d = await p.describe({ record: ["SO-1001"] });
  assert.ok(!d.error, JSON.stringify(d));
  assert.equal(FakeWorker.made, made + 1, "a new worker");
  assert.deepEqual(d.context.records[0].fields.phone, before.context.records[0].fields.phone, "aliases are stable (same key)");
  assert.deepEqual(audit.filter((e) => e.kind === "recovered").map((e) => e.cause), ["WasiExit", "WorkerError"]);
  const stale = /** @type {any} */ (await p.execute({ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot: before.snapshot }));
  assert.equal(stale.error.code, "stale_snapshot");
  p.dispose();
});

test("the worker overwrites its instance's memory only for a bridge started with the test hook", async () => {
  const { p, audit } = await bridge("worker");
  assert.equal(p[internals].instance.fault, undefined, "no fault() without the hook");
  const made = FakeWorker.made;
  p[internals].instance.worker.postMessage({ t: "fault", id: 1 << 30 });
  const d = /** @type {any} */ (await p.describe({ limit: 1 }));
  assert.equal(d.context.recordsTotal, 48);
  assert.deepEqual(audit.filter((e) => e.kind === "recovered").map((e) => e.cause), ["WorkerError"],
    "the fault message is unknown to the worker (a protocol fault), not obeyed (a trap of the module)");
  assert.equal(FakeWorker.made, made + 1, "a new worker");
  p.dispose();
});

test("a message named like an Object.prototype member is unknown to the worker, not a handler", async () => {
  for (const t of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
    const { p, audit } = await bridge("worker");
    const made = FakeWorker.made;
    p[internals].instance.worker.postMessage({ t, id: 1 << 30 });
    const d = /** @type {any} */ (await settles(p.describe({ limit: 1 })));
    assert.equal(d.context.recordsTotal, 48, t);
    assert.deepEqual(audit.filter((e) => e.kind === "recovered").map((e) => e.cause), ["WorkerError"], `${t}: a protocol fault, the worker replaced`);
    assert.equal(FakeWorker.made, made + 1, t);
    p.dispose();
  }
});

/**
 * settles answers what p settles with, or rejects when it has not settled in time.
 * @template T @param {Promise<T>} p @returns {Promise<T>}
 */
async function settles(p) {
  /** @type {any} */
  let timer;
  const late = new Promise((_, fail) => { timer = setTimeout(() => fail(new Error("the call never settled")), 5000); });
  try {
    return /** @type {T} */ (await Promise.race([p, late]));
  } finally {
    clearTimeout(timer);
  }
}

test("a worker handler that throws outside its own guard answers a trap for that call; the worker keeps serving", async () => {
  const { p, audit } = await bridge("worker");
  const made = FakeWorker.made;
  FakeWorker.failPosts = 2; // the answer, then the trap the handler sends instead, fail to post
  const d = /** @type {any} */ (await settles(p.describe({ limit: 1 })));
  assert.equal(FakeWorker.failPosts, 0);
  assert.ok(!d.error, JSON.stringify(d));
  assert.equal(d.context.recordsTotal, 48);
  assert.deepEqual(audit.filter((e) => e.kind === "recovered").map((e) => [e.op, e.cause]), [["describe", "DataCloneError"]]);
  assert.equal(FakeWorker.made, made, "the same worker serves on");
  const again = /** @type {any} */ (await settles(p.describe({ record: ["SO-1002"] })));
  assert.equal(again.context.records[0].id, "SO-1002");
  p.dispose();
});

/** The bridge's host_fallback events among audit events. @param {any[]} audit */
const fallbacks = (audit) => audit.filter((e) => e.kind === "host_fallback");

test("a worker script that cannot load: the default host falls back to this thread and says so, host: \"worker\" rejects", async () => {
  /** @type {any} */ (globalThis).document = {}; // a page: the default host is the worker
  /** @type {string[]} */
  const warned = [];
  const warn = console.warn;
  console.warn = (/** @type {any[]} */ ...a) => void warned.push(a.join(" "));
  try {
    FakeWorker.failLoad = true;
    const { p, audit } = await bridge(/** @type {any} */ (undefined));
    assert.equal(p.host, "main");
    assert.equal((/** @type {any} */ (await p.describe({ limit: 1 }))).context.recordsTotal, 48);
    assert.deepEqual(fallbacks(audit), [{ source: "bridge", kind: "host_fallback", cause: "worker_load_failed" }],
      "once, through onAudit, with why and nothing else");
    assert.equal(audit[0].kind, "host_fallback", "reported as the bridge starts, before its other events");
    assert.deepEqual(warned, ['pinhole: the module runs in the page\'s thread because its worker could not start (worker_load_failed); ' +
      'host: "worker" says why, host: "main" chooses this thread and silences this warning'], "and on the console, for an app that does not watch onAudit");
    p.dispose();
    FakeWorker.failLoad = true;
    await assert.rejects(bridge("worker"), { name: "WorkerError" });
    const { p: q, audit: seen } = await bridge(/** @type {any} */ (undefined));
    assert.equal(q.host, "worker", "with the script there, a page's default is the worker");
    assert.deepEqual(fallbacks(seen), [], "no fallback, no event");
    q.dispose();
    // A worker the browser refuses to construct (a Content-Security-Policy, another origin).
    FakeWorker.refuse = true;
    const { p: r, audit: refused } = await bridge(/** @type {any} */ (undefined));
    assert.equal(r.host, "main");
    assert.deepEqual(fallbacks(refused).map((e) => e.cause), ["worker_refused"]);
    assert.equal(warned.length, 1, "the console hears of a page's first fallback only");
    r.dispose();
    // This thread asked for: no fallback, whatever the worker would have done.
    FakeWorker.failLoad = true;
    const { p: m, audit: main } = await bridge("main");
    FakeWorker.failLoad = false;
    assert.deepEqual(fallbacks(main), []);
    m.dispose();
  } finally {
    console.warn = warn;
    delete (/** @type {any} */ (globalThis)).document;
  }
  const { p: n, audit: node } = await bridge(/** @type {any} */ (undefined)); // Node: no page, this thread by default
  assert.equal(n.host, "main");
  assert.deepEqual(fallbacks(node), []);
  n.dispose();
});

test("a worker script that fails to load: the error names it without query or fragment, and what to check", async () => {
  const worker = "https://cdn.example/assets/pinhole-worker.js?token=s3cret#frag";
  FakeWorker.failLoad = true;
  const err = await bridge("worker", { worker }).then(() => assert.fail("started"), (e) => e);
  assert.equal(err.name, "WorkerError");
  assert.ok(err.message.includes("https://cdn.example/assets/pinhole-worker.js "), err.message);
  assert.doesNotMatch(err.message, /s3cret|frag/);
  for (const hint of [/served there as JavaScript/, /wrong path/, /import map/, /bare specifiers/,
    /bundle @pinholectx\/pinhole\/worker\.js and pass its URL as the worker option/, /Content-Security-Policy/, /host: "main"/]) {
    assert.match(err.message, hint);
  }
  // The package's own script, located by the bundler pattern, is named as such.
  FakeWorker.failLoad = true;
  const own = await bridge("worker").then(() => assert.fail("started"), (e) => e);
  assert.match(own.message, /the package's worker script/);
  // A worker the browser refuses: its location and the same checks.
  FakeWorker.refuse = true;
  const refused = await bridge("worker", { worker }).then(() => assert.fail("started"), (e) => e);
  assert.equal(refused.name, "WorkerError");
  assert.match(refused.message, /the worker https:\/\/cdn\.example\/assets\/pinhole-worker\.js could not start \(SecurityError\): check/);
  assert.doesNotMatch(refused.message, /s3cret/);
});

test("a Response as wasm: a worker that cannot start falls back to this thread with the Response unread there", async () => {
  /** @type {any} */ (globalThis).document = {};
  try {
    const bytes = readFileSync(WASM);
    for (const type of ["application/wasm", "application/octet-stream"]) {
      FakeWorker.failLoad = true;
      const { p, audit } = await bridge(/** @type {any} */ (undefined), { wasm: new Response(bytes, { headers: { "content-type": type } }) });
      assert.equal(p.host, "main", type);
      assert.deepEqual(fallbacks(audit).map((e) => e.cause), ["worker_load_failed"], type);
      assert.equal((/** @type {any} */ (await p.describe({ limit: 1 }))).context.recordsTotal, 48, type);
      p.dispose();
    }
    const { p: q } = await bridge(/** @type {any} */ (undefined), { wasm: new Response(bytes, { headers: { "content-type": "application/wasm" } }) });
    assert.equal(q.host, "worker", "with the script there, the worker compiles the Response");
    assert.equal((/** @type {any} */ (await q.describe({ limit: 1 }))).context.recordsTotal, 48);
    q.dispose();
  } finally {
    delete (/** @type {any} */ (globalThis)).document;
  }
});

test("a module that does not compile fails in the worker as it does in-thread: no fallback", async () => {
  await assert.rejects(bridge("worker", { wasm: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 99]) }), { name: "CompileError" });
  await assert.rejects(createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()), host: /** @type {any} */ ("gpu") }),
    /host is "worker" or "main"/);
});

test("in Node the default host is this thread", async () => {
  const { p } = await bridge(/** @type {any} */ (undefined));
  assert.equal(p.host, "main");
  p.dispose();
});

test("dispose terminates the worker; a call in flight answers not_loaded", async () => {
  const { p } = await bridge("worker");
  const w = p[internals].instance.worker;
  const pending = p.describe();
  p.dispose();
  const d = /** @type {any} */ (await pending);
  assert.equal(d.error.code, "not_loaded");
  assert.equal(w.terminated, true);
  assert.equal(p[internals].instance, null);
});

/** Orders enough for a request of several MiB once the slice is cut to what the manifest declares. */
function manyOrders() {
  const base = ordersState();
  return Array.from({ length: 12000 }, (_, i) => {
    const o = base.orders.items[i % base.orders.items.length];
    return { ...o, id: `${o.id}-${i}`, number: `SO-${100000 + i}` };
  });
}

/**
 * encodingLarge runs fn with every text over a MiB that a TextEncoder
 * encodes handed to seen first.
 * @param {(text: string) => void} seen @param {() => Promise<void>} fn
 */
async function encodingLarge(seen, fn) {
  const encode = TextEncoder.prototype.encode;
  TextEncoder.prototype.encode = function (/** @type {string} */ text) {
    if (text.length > 1 << 20) seen(text);
    return encode.call(this, text);
  };
  try {
    await fn();
  } finally {
    TextEncoder.prototype.encode = encode;
  }
}

/** setOrders replaces the store's orders and waits for the bridge's sync. @param {any} p @param {any} store @param {any[]} items */
async function setOrders(p, store, items) {
  store.setState((/** @type {any} */ s) => ({ ...s, orders: { ...s.orders, items, total: items.length } }));
  await p.flush();
}

test("a large whole-slice sync ends the page's task twice: after reading the slice, and after serialising it", async () => {
  const { p, store } = await bridge("worker");
  const items = manyOrders();
  const events = /** @type {string[]} */ ([]);
  const breathe = WorkerHost.prototype.breathe;
  WorkerHost.prototype.breathe = function () {
    events.push("breathe");
    return breathe.call(this);
  };
  try {
    await encodingLarge((text) => events.push(`encode ${text.startsWith('{"op":"observe","state":')}`), () => setOrders(p, store, items));
  } finally {
    WorkerHost.prototype.breathe = breathe;
  }
  assert.deepEqual(events, ["breathe", "breathe", "encode true"]);
  const d = /** @type {any} */ (await p.describe({ record: [items.at(-1).number] }));
  assert.equal(d.context.records[0].id, items.at(-1).number, "the module holds the large slice");
  p.dispose();
});

test("a bridge disposed while a large request waits its task neither encodes nor sends it", async () => {
  const items = manyOrders();
  /** @type {any} */
  let p;
  const store = plainStore(ordersState());
  p = await createPinhole({
    wasm: pathToFileURL(WASM), manifest: MANIFEST, store, key: KEY, host: "worker",
    trace: (dir, text) => {
      if (dir === "in" && text.length > 1 << 20) p.dispose(); // the request now waits a task in WorkerHost.call
    },
  });
  let encoded = 0;
  await encodingLarge(() => encoded++, () => setOrders(p, store, items));
  assert.equal(encoded, 0);
  const d = /** @type {any} */ (await p.describe());
  assert.equal(d.error.code, "not_loaded");
});
