// Where @mcp-b/global runs the page's MCP server, the context is also
// published as an MCP resource; read here over the real tab transport.
import test from "node:test";
import assert from "node:assert/strict";
import { installDom } from "./dom.js";
import { createPinhole } from "../src/index.js";
import { WASM, MANIFEST, ordersState, plainStore } from "./helpers.js";

installDom();
const { initializeWebModelContext, cleanupWebModelContext } = await import("@mcp-b/global");
const { TabClientTransport } = await import("@mcp-b/transports");

/** A minimal JSON-RPC client over an MCP transport. */
function rpc(/** @type {any} */ transport) {
  let id = 0;
  const pending = new Map();
  transport.onmessage = (/** @type {any} */ m) => {
    if (m.id !== undefined && pending.has(m.id)) {
      pending.get(m.id)(m);
      pending.delete(m.id);
    }
  };
  return {
    /** @param {string} method @param {any} [params] */
    call(method, params) {
      const mid = ++id;
      return new Promise((resolve) => {
        pending.set(mid, resolve);
        transport.send({ jsonrpc: "2.0", id: mid, method, ...(params ? { params } : {}) });
      });
    },
    /** @param {string} method */
    notify(method) {
      return transport.send({ jsonrpc: "2.0", method });
    },
  };
}

test("the context is an MCP resource while exposed", async () => {
  initializeWebModelContext();
  const mc = /** @type {any} */ (document).modelContext;
  assert.equal(typeof mc.registerResource, "function", "@mcp-b/global installed its server");
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()) });
  const h = p.exposeWebMCP();
  await h.ready;

  const transport = new TabClientTransport({ targetOrigin: location.origin });
  await transport.start();
  const client = rpc(transport);
  const init = /** @type {any} */ (await client.call("initialize", {
    protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" },
  }));
  assert.ok(init.result, JSON.stringify(init));
  await client.notify("notifications/initialized");
  const list = /** @type {any} */ (await client.call("resources/list"));
  assert.deepEqual(list.result.resources.map((/** @type {any} */ r) => r.uri), ["pinhole://context"]);
  const read = /** @type {any} */ (await client.call("resources/read", { uri: "pinhole://context" }));
  assert.equal(read.result.contents[0].text, await p.describeText({}));
  const tools = /** @type {any} */ (await client.call("tools/list"));
  assert.ok(tools.result.tools.some((/** @type {any} */ t) => t.name === "describe_context"));

  p.dispose();
  const after = /** @type {any} */ (await client.call("resources/list"));
  assert.deepEqual(after.result?.resources ?? [], [], "dispose unpublishes the resource");
  await transport.close();
  cleanupWebModelContext();
});
