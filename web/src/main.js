// The demo's entry point: the orders console, the Pinhole bridge over its
// store, the WebMCP tools (through @mcp-b/webmcp-polyfill), the extension
// channel, and the agent panel. When the module cannot be loaded (a 404, a
// bad ?key=) the agent panel says so and why; the console keeps working.
//
// Query parameters: ?key=K runs the session with a fixed key (16..256
// characters) so the context is reproducible; ?trace=1 keeps every request
// the bridge sends into the module in window.demo.traced (for the tests);
// ?faults=1 starts the bridge with the test-only hook that lets a test
// overwrite the worker's module memory (offthread.test.mjs).
import { initializeWebMCPPolyfill } from "@mcp-b/webmcp-polyfill";
import { createPinhole, internals } from "@pinholectx/pinhole";
import manifest from "../../testdata/orders/manifest.json";
import { domSnapshot } from "./domsnapshot.js";
import { mountPanel } from "./panel.js";
import { createApp } from "./store.js";
import { mountConsole } from "./view.js";

const params = new URLSearchParams(location.search);
const app = createApp();
const consoleRoot = /** @type {HTMLElement} */ (document.getElementById("console"));
const agentRoot = /** @type {HTMLElement} */ (document.getElementById("agent"));
const view = mountConsole(consoleRoot, app);

/** Every request text the bridge sent into the module (only with ?trace=1). */
const traced = [];
/** Audit events (module and bridge), newest last, capped. */
const audit = [];

/**
 * showLoadError replaces the agent panel's content with why it could not
 * start. The bridge's errors name codes and parameters, never values.
 * @param {any} err
 */
function showLoadError(err) {
  const code = typeof err?.code === "string" ? err.code : "";
  agentRoot.innerHTML = `
<div class="load-error" role="alert">
  <h2>The agent panel could not start</h2>
  <p><code id="load-error-text"></code></p>
  <p>The page loads <code>pinhole.wasm</code> from <code>/pinhole.wasm</code> (<code>make demo</code> builds and serves it);
  <code>?key=</code> must be 16 to 256 characters. The console on the left works without it.</p>
</div>`;
  /** @type {HTMLElement} */ (agentRoot.querySelector("#load-error-text")).textContent =
    (code ? `${code}: ` : "") + String(err?.message ?? err);
}

const pinhole = await createPinhole({
  wasm: new URL("/pinhole.wasm", location.href),
  manifest,
  store: app.store,
  key: params.get("key") ?? undefined,
  trace: params.has("trace") ? (dir, text) => { if (dir === "in") traced.push(text); } : undefined,
  ...(params.has("faults") ? { [internals]: { faults: true } } : {}),
  onAudit: (e) => { audit.push(e); if (audit.length > 200) audit.shift(); },
  onActionError: (err, capability) => console.warn(`action ${capability} failed:`, err?.message ?? err),
  actions: {
    "order.ship": ({ record, input }) => app.act.ship(record, /** @type {any} */ (input).carrier),
    "order.open": ({ record }) => app.act.open(record),
    "order.refund": ({ input }) => app.act.refund(/** @type {any} */ (input).amount),
    "orders.export": () => { app.act.exportCsv(); },
    "order.charge": ({ record, input }) => app.act.charge(record, /** @type {any} */ (input).card, /** @type {any} */ (input).amount),
    "orders.view": ({ input }) => app.act.setView(/** @type {any} */ (input)),
  },
}).catch((err) => {
  showLoadError(err);
  Object.assign(window, { demo: { app, view, loadError: err } });
  document.documentElement.dataset.ready = "error";
  return null;
});
if (pinhole) {
  initializeWebMCPPolyfill({ installTestingShim: true });
  const webmcp = pinhole.exposeWebMCP();
  pinhole.exposeToExtension();

  const panel = mountPanel(agentRoot, { pinhole, app, consoleRoot });

  /** The hooks the e2e tests and curious developers use from the console. */
  Object.assign(window, {
    demo: { pinhole, app, view, panel, webmcp, traced, audit, domSnapshot: () => domSnapshot(consoleRoot) },
  });
  await Promise.all([webmcp.ready, panel.ready]);
  document.documentElement.dataset.ready = "true";
}
