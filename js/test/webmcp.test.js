// WebMCP with the real @mcp-b/webmcp-polyfill in a jsdom page.
import test from "node:test";
import assert from "node:assert/strict";
import { installDom } from "./dom.js";
import { createPinhole } from "../src/index.js";
import { WASM, MANIFEST, NO_OP_ACTIONS, ordersState, plainStore, settle } from "./helpers.js";

installDom();
const { initializeWebMCPPolyfill, cleanupWebMCPPolyfill } = await import("@mcp-b/webmcp-polyfill");

/** @param {any} mc */
const names = async (mc) => (await mc.getTools()).map((/** @type {any} */ t) => t.name);

test("tools for the context and every capability of the active regions, kept in step", async () => {
  initializeWebMCPPolyfill();
  const mc = /** @type {any} */ (document).modelContext;
  const store = plainStore(ordersState());
  /** @type {any[]} */
  const handled = [];
  const p = await createPinhole({
    wasm: WASM, manifest: MANIFEST, store,
    actions: {
      ...NO_OP_ACTIONS,
      "order.open": (/** @type {any} */ req) => {
        handled.push(req);
        store.setState((s) => ({ ...s, ui: { ...s.ui, detailOpen: true, selected: req.record } }));
      },
    },
  });
  const h = p.exposeWebMCP();
  await h.ready;
  assert.deepEqual(await names(mc), ["describe_context", "order.charge", "order.open", "order.ship", "orders.export", "orders.view"]);

  const tools = await mc.getTools();
  const describeTool = tools.find((/** @type {any} */ t) => t.name === "describe_context");
  assert.deepEqual(describeTool.annotations, { readOnlyHint: true, untrustedContentHint: true });
  const ship = tools.find((/** @type {any} */ t) => t.name === "order.ship");
  assert.equal(ship.description, "Ship one order");
  assert.deepEqual(ship.inputSchema.required, ["snapshot", "record", "input"]);
  assert.deepEqual(ship.inputSchema.properties.input.properties.carrier.enum, ["ups", "dhl"]);
  assert.equal(ship.annotations.untrustedContentHint, true);

  const out = JSON.parse(await mc.executeTool(describeTool, JSON.stringify({ limit: 2 })));
  assert.equal(out.content[0].text, await p.describeText({ limit: 2 }));
  const d = JSON.parse(out.content[0].text);

  // The agent opens an order: the detail region becomes active, and its
  // capability appears as a tool; closing it takes the tool away again.
  const open = tools.find((/** @type {any} */ t) => t.name === "order.open");
  const res = JSON.parse(await mc.executeTool(open, JSON.stringify({ snapshot: d.snapshot, record: "SO-1002" })));
  assert.equal(handled.length, 1, res.content[0].text);
  assert.equal(handled[0].record, "SO-1002");
  await settle();
  await h.ready;
  assert.deepEqual(await names(mc), ["describe_context", "order.charge", "order.open", "order.refund", "order.ship", "orders.export", "orders.view"]);
  store.setState((s) => ({ ...s, ui: { ...s.ui, detailOpen: false } }));
  await settle();
  await h.ready;
  assert.deepEqual(await names(mc), ["describe_context", "order.charge", "order.open", "order.ship", "orders.export", "orders.view"]);

  // Errors reach the agent as error results, not exceptions.
  const bad = JSON.parse(await mc.executeTool(ship, JSON.stringify({ snapshot: d.snapshot, record: "SO-1002", input: { carrier: "ups" } })));
  assert.equal(JSON.parse(bad.content[0].text).error.code, "capability_unavailable");
  assert.equal(bad.isError, true);

  p.dispose();
  await settle();
  assert.deepEqual(await names(mc), [], "dispose unregisters everything");
  cleanupWebMCPPolyfill();
});

test("falls back to navigator.modelContext when document has none", async () => {
  /** @type {any[]} */
  const registered = [];
  const ctx = {
    registerTool(/** @type {any} */ tool, /** @type {any} */ opts) {
      registered.push(tool.name);
      opts.signal.addEventListener("abort", () => registered.splice(registered.indexOf(tool.name), 1));
    },
  };
  Object.defineProperty(navigator, "modelContext", { value: ctx, configurable: true });
  assert.equal(/** @type {any} */ (document).modelContext, undefined);
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()), actions: NO_OP_ACTIONS });
  const h = p.exposeWebMCP();
  await h.ready;
  assert.deepEqual(registered.sort(), ["describe_context", "order.charge", "order.open", "order.ship", "orders.export", "orders.view"]);
  h.dispose();
  assert.deepEqual(registered, []);
  p.dispose();
  delete (/** @type {any} */ (navigator)).modelContext;
});

test("without any modelContext exposeWebMCP says so and registers nothing", async () => {
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()) });
  const h = p.exposeWebMCP();
  assert.equal(h.exposed, false);
  assert.match(String(h.reason), /no WebMCP modelContext.*@mcp-b\/global/);
  await h.ready;
  assert.deepEqual(h.tools(), []);
  h.dispose();
  p.dispose();
});

test("tools WebMCP cannot take are not lost without a word: refused() names them and says why, and they come back when they can", async () => {
  initializeWebMCPPolyfill();
  const mc = /** @type {any} */ (document).modelContext;
  // The page registered a tool of its own under a capability's name.
  const pageTool = new AbortController();
  await mc.registerTool({ name: "order.open", description: "The page's own", inputSchema: { type: "object" }, execute: async () => ({ content: [] }) },
    { signal: pageTool.signal });
  const manifest = structuredClone(MANIFEST);
  const rename = (/** @type {string} */ from, /** @type {string} */ to) => { manifest.capabilities.find((/** @type {any} */ c) => c.name === from).name = to; };
  rename("order.ship", "Ship order!"); // outside WebMCP's tool names
  rename("orders.export", "describe_context"); // the describe tool's name
  rename("order.refund", "refund/order"); // outside too, in the side panel's region
  const store = plainStore(ordersState());
  const actions = Object.fromEntries(manifest.capabilities.map((/** @type {any} */ c) => [c.name, () => {}]));
  const p = await createPinhole({ wasm: WASM, manifest, store, actions });
  const h = p.exposeWebMCP();
  await h.ready;
  const refused = () => Object.fromEntries(h.refused().map((r) => [r.name, `${r.tool}: ${r.reason}`]));
  assert.deepEqual(h.tools().sort(), ["describe_context", "order.charge", "orders.view"]);
  assert.deepEqual(await names(mc), ["describe_context", "order.charge", "order.open", "orders.view"]);
  const first = refused();
  assert.deepEqual(Object.keys(first).sort(), ["Ship order!", "describe_context", "order.open"]);
  assert.match(first["Ship order!"], /^capability: not a WebMCP tool name/);
  assert.match(first.describe_context, /^capability: the describe tool has this name/);
  assert.match(first["order.open"], /^capability: the modelContext refused it: .*already registered/);

  // Another change of the context: the same refusals (the modelContext's tried again, refused again).
  store.setState((s) => ({ ...s, session: { ...s.session, role: "manager" } }));
  await settle();
  await h.ready;
  assert.deepEqual(refused(), first);

  // The side panel opens: its capability is refused by name while the region is active, and no longer listed once it is not.
  store.setState((s) => ({ ...s, ui: { ...s.ui, detailOpen: true, selected: "SO-1001" } }));
  await settle();
  await h.ready;
  assert.match(refused()["refund/order"], /^capability: not a WebMCP tool name/);
  store.setState((s) => ({ ...s, ui: { ...s.ui, detailOpen: false } }));
  await settle();
  await h.ready;
  assert.deepEqual(refused(), first);

  // The page's own tool goes: at the next change the capability is offered.
  pageTool.abort();
  store.setState((s) => ({ ...s, ui: { ...s.ui, selected: "SO-1002" } }));
  await settle();
  await h.ready;
  assert.deepEqual(h.tools().sort(), ["describe_context", "order.charge", "order.open", "orders.view"]);
  assert.equal(refused()["order.open"], undefined);

  h.dispose();
  assert.deepEqual(h.refused(), []);
  assert.deepEqual(await names(mc), []);
  p.dispose();
  cleanupWebMCPPolyfill();
});

test("a describe tool WebMCP cannot take is listed as refused; one the page held is offered once the page lets go", async () => {
  initializeWebMCPPolyfill();
  const mc = /** @type {any} */ (document).modelContext;
  const store = plainStore(ordersState());
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, actions: NO_OP_ACTIONS });

  const badName = p.exposeWebMCP({ describeToolName: "describe context" });
  await badName.ready;
  assert.deepEqual(badName.refused().map((r) => [r.name, r.tool]), [["describe context", "describe"]]);
  assert.match(badName.refused()[0].reason, /^not a WebMCP tool name/);
  assert.ok(!(await names(mc)).includes("describe context"));
  badName.dispose();
  const tooLong = p.exposeWebMCP({ describeToolName: "d".repeat(129) }); // 128 is WebMCP's most
  await tooLong.ready;
  assert.match(tooLong.refused()[0]?.reason ?? "", /^not a WebMCP tool name/);
  tooLong.dispose();
  const longest = p.exposeWebMCP({ describeToolName: "d".repeat(128) });
  await longest.ready;
  assert.ok(longest.tools().includes("d".repeat(128)));
  longest.dispose();

  const pageTool = new AbortController();
  await mc.registerTool({ name: "describe_context", description: "The page's own", inputSchema: { type: "object" }, execute: async () => ({ content: [] }) },
    { signal: pageTool.signal });
  const h = p.exposeWebMCP();
  await h.ready;
  assert.deepEqual(h.refused().map((r) => [r.name, r.tool]), [["describe_context", "describe"]]);
  assert.ok(!h.tools().includes("describe_context"));
  pageTool.abort();
  store.setState((s) => ({ ...s, ui: { ...s.ui, selected: "SO-1002" } }));
  await settle();
  await h.ready;
  assert.ok(h.tools().includes("describe_context"));
  assert.deepEqual(h.refused(), []);
  p.dispose();
  await settle();
  assert.deepEqual(await names(mc), []);
  cleanupWebMCPPolyfill();
});

test("dispose while registrations are under way leaves no tool behind", async () => {
  initializeWebMCPPolyfill();
  const mc = /** @type {any} */ (document).modelContext;
  // A modelContext whose registerTool takes a while, as a browser's promise does.
  const slow = { registerTool: async (/** @type {any} */ tool, /** @type {any} */ opts) => {
    await new Promise((r) => setTimeout(r, 5));
    return mc.registerTool(tool, opts);
  } };
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()), actions: NO_OP_ACTIONS });
  const h = p.exposeWebMCP({ modelContext: slow });
  await new Promise((r) => setTimeout(r, 12)); // the describe tool and maybe one capability registered
  h.dispose();
  await h.ready;
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(h.tools(), []);
  assert.deepEqual(h.refused(), []);
  assert.deepEqual(await names(mc), [], "a tool was registered after dispose");
  p.dispose();
  cleanupWebMCPPolyfill();
});

test("a capability the app gave no handler for is not offered as a tool: refused() says so, and the bridge reports the mismatch", async () => {
  initializeWebMCPPolyfill();
  const mc = /** @type {any} */ (document).modelContext;
  /** @type {any[]} */
  const audit = [];
  const warned = [];
  const warn = console.warn;
  console.warn = (/** @type {any[]} */ ...a) => void warned.push(a.join(" "));
  try {
    /** @type {Record<string, Function>} */
    const actions = { "order.open": () => {}, "orders.ship": () => {}, "invoice.pay": () => {} }; // a typo, and a handler of another page's manifest
    const store = plainStore(ordersState());
    const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, onAudit: (e) => audit.push(e), actions });
    const h = p.exposeWebMCP();
    await h.ready;
    assert.deepEqual(await names(mc), ["describe_context", "order.open"]);
    assert.deepEqual(h.refused().map((r) => r.name).sort(), ["order.charge", "order.ship", "orders.export", "orders.view"]);
    assert.ok(h.refused().every((r) => r.tool === "capability" && /^no handler/.test(r.reason)));
    assert.deepEqual(audit.filter((e) => e.kind === "actions"),
      [{ source: "bridge", kind: "actions", undeclared: ["orders.ship", "invoice.pay"], unhandled: ["order.ship", "order.refund", "orders.export", "order.charge", "orders.view"] }]);
    assert.deepEqual(warned, ['pinhole: actions has "orders.ship", which the manifest does not declare: did you mean "order.ship"?'],
      "a likely typo warns; another manifest's handler does not");

    // A handler added later is offered at the next change of the context.
    actions["order.ship"] = () => {};
    store.setState((s) => ({ ...s, ui: { ...s.ui, selected: "SO-1002" } }));
    await settle();
    await h.ready;
    assert.deepEqual(await names(mc), ["describe_context", "order.open", "order.ship"]);
    assert.ok(!h.refused().some((r) => r.name === "order.ship"));
    p.dispose();
  } finally {
    console.warn = warn;
    cleanupWebMCPPolyfill();
  }
});
