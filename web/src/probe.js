// A page from another origin, embedded by the tests as an iframe of the
// console. It tries every way a frame could reach the console's context and
// records what it got in window.probeResult: the extension channel (to its
// own window, as a content script would, and to the parent), the parent's
// globals, and WebMCP tools.
import { connectFromContentScript } from "@pinholectx/pinhole";

const attempt = async (fn) => {
  try { return { got: await fn() }; } catch (err) { return { refused: String(err?.name ?? "") + ": " + String(err?.message ?? err).slice(0, 200) }; }
};

/** A WindowLike whose messages go to the parent frame, answers come to this one. */
const toParent = {
  addEventListener: (t, l) => window.addEventListener(t, l),
  removeEventListener: (t, l) => window.removeEventListener(t, l),
  postMessage: (m, _origin, transfer) => window.parent.postMessage(m, "*", transfer),
  location: window.location,
};

async function probe() {
  return {
    origin: location.origin,
    ownWindow: await attempt(async () => (await connectFromContentScript({ timeoutMs: 1500 })).describe({})),
    viaParent: await attempt(async () => (await connectFromContentScript({ window: toParent, timeoutMs: 1500 })).describe({})),
    parentGlobals: await attempt(async () => JSON.stringify(window.parent.demo?.app.store.getState() ?? null)),
    webmcp: await attempt(async () => (await document.modelContext?.getTools?.())?.map((t) => t.name) ?? []),
  };
}

probe().then((r) => { window.probeResult = r; document.getElementById("out").textContent = JSON.stringify(r, null, 2); });
