// The two agent hand-offs are independent: in plain Node (no document, no
// modelContext) exposeWebMCP registers nothing and says why, without
// throwing, and exposeToExtension beside it still serves an extension.
import test from "node:test";
import assert from "node:assert/strict";
import { createPinhole } from "../src/index.js";
import { connectFromContentScript } from "../src/extension.js";
import { NO_MODEL_CONTEXT } from "../src/webmcp.js";
import { WASM, MANIFEST, ordersState, plainStore } from "./helpers.js";

/** A window-like EventTarget delivering postMessage to itself, as a page does. */
class PageWindow extends EventTarget {
  location = { origin: "https://shop.example" };
  /** @param {any} data @param {string} targetOrigin @param {any[]} [ports] */
  postMessage(data, targetOrigin, ports = []) {
    if (targetOrigin !== "*" && targetOrigin !== this.location.origin) return;
    const ev = new Event("message");
    Object.assign(ev, { data: structuredClone(data), origin: this.location.origin, source: this, ports });
    setTimeout(() => this.dispatchEvent(ev), 0);
  }
}

test("no modelContext: exposeWebMCP reports it, exposeToExtension still works", async () => {
  const g = /** @type {any} */ (globalThis);
  assert.equal(g.document?.modelContext ?? g.navigator?.modelContext, undefined, "this test needs a page without WebMCP");
  const win = new PageWindow();
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()) });
  const webmcp = p.exposeWebMCP();
  assert.equal(webmcp.exposed, false);
  assert.equal(webmcp.reason, NO_MODEL_CONTEXT);
  assert.match(webmcp.reason, /@mcp-b\/global/);
  await webmcp.ready;
  assert.deepEqual(webmcp.tools(), []);

  const ext = p.exposeToExtension({ window: /** @type {any} */ (win) });
  const client = await connectFromContentScript({ window: /** @type {any} */ (win) });
  const d = /** @type {any} */ (await client.describe({ limit: 1 }));
  assert.equal(d.context.recordsTotal, 48);
  client.close();
  webmcp.dispose();
  ext.dispose();
  p.dispose();
});

test("with a modelContext the handle says exposed and has no reason", async () => {
  /** @type {string[]} */
  const names = [];
  const modelContext = { registerTool: (/** @type {any} */ tool) => { names.push(tool.name); } };
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()) });
  const webmcp = p.exposeWebMCP({ modelContext });
  assert.equal(webmcp.exposed, true);
  assert.equal(webmcp.reason, undefined);
  await webmcp.ready;
  assert.ok(names.includes("describe_context"));
  p.dispose();
});
