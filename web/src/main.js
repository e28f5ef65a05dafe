// The demo's entry point: the orders console, the Pinhole bridge over its
// store, the WebMCP tools (through @mcp-b/webmcp-polyfill), the extension
// channel, and the agent panel.
//
// Query parameters: ?key=K runs the session with a fixed key (16..256
// characters) so the context is reproducible; ?trace=1 keeps every request
// the bridge sends into the module in window.demo.traced (for the tests).
import { initializeWebMCPPolyfill } from "@mcp-b/webmcp-polyfill";
import { createPinhole } from "@pinholectx/pinhole";
import manifest from "../../testdata/orders/manifest.json";
import { domSnapshot } from "./domsnapshot.js";
import { mountPanel } from "./panel.js";
import { createApp } from "./store.js";
import { mountConsole } from "./view.js";

const params = new URLSearchParams(location.search);
const app = createApp();
const consoleRoot = /** @type {HTMLElement} */ (document.getElementById("console"));
mountConsole(consoleRoot, app);

/** Every request text the bridge sent into the module (only with ?trace=1). */
const traced = [];
/** Audit events (module and bridge), newest last, capped. */
const audit = [];

const pinhole = await createPinhole({
  wasm: new URL("/pinhole.wasm", location.href),
  manifest,
  store: app.store,
  key: params.get("key") ?? undefined,
  trace: params.has("trace") ? (dir, text) => { if (dir === "in") traced.push(text); } : undefined,
  onAudit: (e) => { audit.push(e); if (audit.length > 200) audit.shift(); },
  onActionError: (err, capability) => console.warn(`action ${capability} failed:`, err?.message ?? err),
  actions: {
    "order.ship": ({ record, input }) => app.act.ship(record, /** @type {any} */ (input).carrier),
    "order.open": ({ record }) => app.act.open(record),
    "order.refund": ({ input }) => app.act.refund(/** @type {any} */ (input).amount),
    "orders.export": () => { app.act.exportCsv(); },
    "order.charge": ({ record, input }) => app.act.charge(record, /** @type {any} */ (input).card, /** @type {any} */ (input).amount),
  },
});

initializeWebMCPPolyfill({ installTestingShim: true });
const webmcp = pinhole.exposeWebMCP();
pinhole.exposeToExtension();

const panel = mountPanel(/** @type {HTMLElement} */ (document.getElementById("agent")), { pinhole, app, consoleRoot });

/** The hooks the e2e tests and curious developers use from the console. */
Object.assign(window, {
  demo: { pinhole, app, panel, webmcp, traced, audit, domSnapshot: () => domSnapshot(consoleRoot) },
});
await webmcp.ready;
document.documentElement.dataset.ready = "true";
