// The content script: connects to the page's Pinhole bridge through the
// extension channel (window.postMessage + a MessageChannel the page hands
// over) and relays the popup's describe and execute requests. It sees only
// what the bridge answers — the same context an agent gets — never the
// page's store.
import { connectFromContentScript } from "@pinholectx/pinhole";

/** @type {Promise<import("@pinholectx/pinhole").ExtensionClient> | null} */
let client = null;
const connect = () => (client ??= connectFromContentScript({ timeoutMs: 5000 }).catch((err) => { client = null; throw err; }));

chrome.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
  const op = msg?.pinhole;
  if (op !== "describe" && op !== "execute") return false;
  connect()
    .then((c) => (op === "describe" ? c.describe(msg.request ?? {}) : c.execute(msg.request)))
    .then(sendResponse, (err) => sendResponse({ error: { code: "no_bridge", message: String(err?.message ?? err) } }));
  return true;
});
