// The extension's service worker. It holds no state: the popup talks to the
// content script of a tab directly. It only answers which tabs have a page
// the content script runs in, for the popup's tab picker.
chrome.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
  if (msg?.pinhole !== "tabs") return false;
  chrome.tabs.query({ url: ["http://127.0.0.1/*", "http://localhost/*"] }).then((tabs) =>
    sendResponse(tabs.map((t) => ({ id: t.id, title: t.title, url: t.url }))));
  return true;
});
