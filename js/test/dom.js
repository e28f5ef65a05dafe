// A DOM for the WebMCP tests: jsdom's window, installed as Node's globals
// the way the WebMCP packages expect to find them in a page.
import { JSDOM } from "jsdom";

/** installDom makes a jsdom page at url the global window and document. */
export function installDom(url = "https://shop.example/orders") {
  const dom = new JSDOM("<!doctype html><html><body></body></html>", { url });
  const w = dom.window;
  for (const k of ["window", "document", "navigator", "location", "Document", "Navigator", "HTMLFormElement",
    "HTMLElement", "Element", "Node", "ShadowRoot", "SubmitEvent", "MutationObserver", "DOMException"]) {
    Object.defineProperty(globalThis, k, { value: w[k], configurable: true, writable: true });
  }
  // jsdom's postMessage leaves origin empty and source null; a browser sets
  // both for a same-window message. Deliver as a browser does.
  w.postMessage = (/** @type {any} */ data, /** @type {string} */ targetOrigin) => {
    if (targetOrigin !== "*" && targetOrigin !== w.location.origin) return;
    const copy = structuredClone(data);
    setTimeout(() => w.dispatchEvent(new w.MessageEvent("message", { data: copy, origin: w.location.origin, source: w })), 0);
  };
  return dom;
}
