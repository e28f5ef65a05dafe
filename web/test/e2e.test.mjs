// End-to-end tests of the demo in real headless Chromium (Debian's
// /usr/bin/chromium driven by playwright-core): the console loads
// pinhole.wasm through the bridge, the context matches the golden file and
// the Go core, windows, record selection and errors behave, the modal and
// the ship action produce the right after, WebMCP tools appear through
// @mcp-b/webmcp-polyfill, the example extension reads the context, a
// cross-origin iframe gets nothing, planted sensitive values reach no agent,
// and the conformance vectors replay byte for byte.
//
// Every test opens the demo in a browser context of its own (demoTest) and
// can run alone: `make test-web-isolated` runs each one by itself. Tests
// share only the browser process and the two static servers, and run
// E2E_CONCURRENCY at a time (default 2; 1 for undisturbed timings). When a
// demo test passes, assertNothingPlanted checks what its page let out.
//
// UPDATE_GOLDEN=1 rewrites test/golden; UPDATE_SCREENSHOT=1 rewrites
// web/screenshot.png. Screenshots and measured figures go to test-results/.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../serve.mjs";
import { makeState } from "../../testdata/orders/generate.mjs";
import { leaks, plantedValues } from "../src/domsnapshot.js";

const web = dirname(dirname(fileURLToPath(import.meta.url)));
const repo = dirname(web);
const results = join(web, "test-results");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--no-first-run"];
/** The key of the conformance vectors, so the context equals the Go core's. */
const KEY = "conformance-key-0001";
/** Tests that run at once (E2E_CONCURRENCY=1 runs them one by one). */
const CONCURRENCY = Number(process.env.E2E_CONCURRENCY ?? 2);
const manifest = JSON.parse(readFileSync(join(repo, "testdata/orders/manifest.json"), "utf8"));
const initial = makeState(48);

/** Measured figures, merged into test-results/figures.json. */
const figures = {};
/** What no agent may receive: the sensitive values planted in the demo's store. */
const planted = plantedValues(initial, initial.orders.items);
let server, other, browser;

// The browser process and the two static servers are shared; every test
// opens its own browser context and demo page (openDemo), so each one runs
// alone: `node --test --test-name-pattern='^<name>$' test/e2e.test.mjs`.
before(async () => {
  mkdirSync(results, { recursive: true });
  server = await startServer();
  other = await startServer(); // another port: another origin
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
});

after(async () => {
  // A run of some tests updates their figures and keeps the others'.
  const file = join(results, "figures.json");
  let old = {};
  try { old = JSON.parse(readFileSync(file, "utf8")); } catch { /* first run */ }
  writeFileSync(file, JSON.stringify({ ...old, ...figures }, null, 2) + "\n");
  await browser?.close();
  await server?.close();
  await other?.close();
});

/**
 * @typedef {object} Demo
 * @property {import("playwright-core").Page} page the demo, ready, in a browser context of its own
 * @property {string[]} received every byte an agent received in the test (describe, execute, WebMCP, extension, probe)
 * @property {number} readyMs from navigation to the page saying it is ready
 * @property {(request: object) => Promise<any>} describe describe through the page's bridge, recorded as received
 * @property {(request: object) => Promise<any>} execute execute through the page's bridge, recorded as received
 */

/**
 * openDemo opens the demo with the conformance key and tracing on, in a
 * new page of context, and waits until it is ready.
 * @param {import("playwright-core").BrowserContext} context
 * @returns {Promise<Demo>}
 */
async function openDemo(context) {
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  const t0 = Date.now();
  await page.goto(`${server.url}?key=${KEY}&trace=1`);
  await page.waitForSelector("html[data-ready=true]");
  const readyMs = Date.now() - t0;
  /** @type {string[]} */
  const received = [];
  return {
    page, received, readyMs,
    async describe(request) {
      const text = await page.evaluate((r) => demo.pinhole.describeText(r), request);
      received.push(text);
      return JSON.parse(text);
    },
    async execute(request) {
      const res = await page.evaluate((r) => demo.pinhole.execute(r), request);
      received.push(JSON.stringify(res));
      return res;
    },
  };
}

/**
 * assertNothingPlanted checks what one demo page let out: no planted value in
 * anything the agent received or in the audit events, and no undeclared one
 * in the bytes the bridge sent into the module.
 * @param {Demo} d
 */
async function assertNothingPlanted(d) {
  assert.deepEqual(leaks(d.received.join("\n"), planted).map(([, what]) => what), [], "a planted value reached the agent");
  const audit = JSON.stringify(await d.page.evaluate(() => demo.audit));
  assert.deepEqual(leaks(audit, planted).map(([, what]) => what), [], "a planted value is in an audit event");
  const traced = (await d.page.evaluate(() => demo.traced)).join("\n");
  // Declared but masked, aliased or placeholder values do enter (proof the check sees the bytes).
  assert.ok(traced.includes(initial.orders.items[0].customer.email), "the trace does not hold the first observe");
  const undeclared = new Map([...planted].filter(([, what]) => !["customer e-mail", "customer phone", "card number"].includes(what)));
  assert.deepEqual(leaks(traced, undeclared).map(([, what]) => what), [], "an undeclared value entered the module");
}

/**
 * demoTest is a test on a demo page of its own (in its own browser context),
 * closed afterwards; when the test passes, assertNothingPlanted checks what
 * the page let out.
 * @param {string} name
 * @param {(d: Demo) => Promise<void>} fn
 */
function demoTest(name, fn) {
  test(name, async () => {
    const context = await browser.newContext({ viewport: { width: 1500, height: 940 } });
    try {
      const d = await openDemo(context);
      await fn(d);
      await assertNothingPlanted(d);
    } finally {
      await context.close();
    }
  });
}

const ids = (records) => records.map((r) => r.id);

describe("the demo in headless Chromium", { concurrency: CONCURRENCY }, () => {
  demoTest("the page loads the module and describe equals the golden context and the Go core", async ({ page, received, readyMs }) => {
    figures.pageReadyMs = readyMs;
    const text = await page.evaluate(() => demo.pinhole.describeText({}));
    received.push(text);
    const golden = join(web, "test/golden/describe-default.json");
    if (process.env.UPDATE_GOLDEN) writeFileSync(golden, text + "\n");
    assert.equal(text + "\n", readFileSync(golden, "utf8"), "context differs from test/golden/describe-default.json");

    // The conformance vector describe-default is the Go core's answer for the
    // same manifest, state and key: the browser must produce the same bytes.
    const vin = readFileSync(join(repo, "testdata/vectors/describe-default.in.jsonl"), "utf8").split("\n");
    const vout = readFileSync(join(repo, "testdata/vectors/describe-default.out.jsonl"), "utf8").split("\n");
    const load = JSON.parse(vin[0]);
    assert.deepEqual(load.manifest, manifest);
    assert.equal(load.key, KEY);
    assert.deepEqual(JSON.parse(vin[1]).state, initial);
    assert.deepEqual(JSON.parse(vin[2]), { op: "describe" });
    assert.equal(text, vout[2]);

    const d = JSON.parse(text);
    assert.equal(d.context.recordsTotal, 48);
    assert.deepEqual(d.context.recordWindow, { offset: 0, limit: 8, returned: 8, total: 48, next: 8 });
    // The panel shows the same context the agent gets.
    assert.deepEqual(JSON.parse(await page.locator("#context").textContent()), d);
  });

  demoTest("paging, record selection and the errors for bad windows", async ({ page, describe }) => {
    const p2 = await describe({ offset: 8, limit: 8 });
    assert.deepEqual(p2.context.recordWindow, { offset: 8, limit: 8, returned: 8, total: 48, next: 16 });
    assert.deepEqual(ids(p2.context.records), ["SO-1009", "SO-1010", "SO-1011", "SO-1012", "SO-1013", "SO-1014", "SO-1015", "SO-1016"]);
    const last = await describe({ offset: 40, limit: 8 });
    assert.equal(last.context.recordWindow.returned, 8);
    assert.equal("next" in last.context.recordWindow, false);
    assert.equal(last.context.recordIds.length, 48);

    const sel = await describe({ record: ["SO-1044", "SO-1002"] });
    assert.deepEqual(ids(sel.context.records), ["SO-1044", "SO-1002"]);
    assert.equal("recordWindow" in sel.context, false);

    const both = await describe({ record: ["SO-1002"], limit: 8 });
    assert.equal(both.error.code, "record_with_window");
    assert.equal(both.error.param, "record");
    assert.equal((await describe({ limit: 51 })).error.code, "limit_exceeds_max");
    assert.equal((await describe({ record: ["SO-9999"] })).error.code, "unknown_record");

    // The same through the agent panel's request form.
    await page.fill("#req [name=record]", "SO-1002");
    await page.fill("#req [name=limit]", "8");
    await page.click("#req button:not([type])");
    await page.waitForFunction(() => document.querySelector("#context").textContent.includes("record_with_window"));
    assert.equal(await page.textContent("#nextreq"), '{"limit":8,"record":["SO-1002"]}');
    // Paging in the panel: "Next window" asks for the window the context announces.
    await page.fill("#req [name=record]", "");
    await page.click("#req button:not([type])");
    await page.click("#nextwin");
    await page.waitForFunction(() => document.querySelector("#nextreq").textContent === '{"offset":8,"limit":8}');
    assert.deepEqual(JSON.parse(await page.textContent("#context")).context.recordWindow, { offset: 8, limit: 8, returned: 8, total: 48, next: 16 });
    await page.fill("#req [name=offset]", "");
    await page.fill("#req [name=limit]", "");
    await page.click("#req button:not([type])");
    await page.waitForFunction(() => document.querySelector("#nextreq").textContent === "{}");
  });

  demoTest("filtering in the UI changes the records the agent sees", async ({ page, describe }) => {
    await page.selectOption("#filter", "Ready to ship");
    await page.evaluate(() => demo.pinhole.flush());
    const d = await describe({});
    assert.equal(d.context.recordsTotal, 16);
    assert.equal(d.context.state.filter, "Ready to ship");
    assert.ok(d.context.records.every((r) => r.fields.status === "Ready to ship"));
    assert.equal(await page.locator("tbody tr").count(), 8);
    await page.selectOption("#filter", "all");
    await page.evaluate(() => demo.pinhole.flush());
    assert.equal((await describe({})).context.recordsTotal, 48);
  });

  demoTest("opening the side panel activates the order-detail region", async ({ page, describe, execute }) => {
    await page.click('a[data-open="SO-1003"]');
    await page.waitForSelector('[role=dialog][aria-label="Order SO-1003"]');
    await page.evaluate(() => demo.pinhole.flush());
    let d = await describe({});
    assert.deepEqual(d.context.regions.map((r) => r.id), ["orders", "order-detail"]);
    assert.equal(d.context.state.selected, "SO-1003");
    assert.ok(d.capabilities.some((c) => c.name === "order.refund"));
    assert.ok(d.context.unavailable.some((u) => u.capability === "order.refund" && u.reason === "Only managers can refund"));

    // A manager may refund: the reason disappears.
    await page.selectOption("#role", "manager");
    await page.evaluate(() => demo.pinhole.flush());
    d = await describe({});
    assert.equal(d.context.unavailable.some((u) => u.capability === "order.refund"), false);
    // Validation feedback of the refund form reaches the context with its provenance.
    await page.fill("#refund [name=amount]", "99999");
    await page.click("#refund button");
    await page.waitForSelector("#refund-error:not(:empty)");
    await page.evaluate(() => demo.pinhole.flush());
    d = await describe({});
    assert.ok(d.context.feedback.some((f) => f.source === "validation" && f.text.startsWith("Refund amount must be between")));
    await page.selectOption("#role", "clerk");

    await page.click("#close");
    await page.evaluate(() => demo.pinhole.flush());
    d = await describe({});
    assert.deepEqual(d.context.regions.map((r) => r.id), ["orders"]);

    // The agent opens a record: the after says the page changed (a modal).
    const r = await execute({ capability: "order.open", record: "SO-1005", snapshot: d.snapshot });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.after.redescribe.required, true);
    assert.ok(r.after.redescribe.reasons.includes("modal"), JSON.stringify(r.after.redescribe));
    await page.waitForSelector('[role=dialog][aria-label="Order SO-1005"]');
    // The side panel's capability becomes a WebMCP tool while the panel is open.
    await page.waitForFunction(async () => (await document.modelContext.getTools()).some((t) => t.name === "order.refund"), null, { polling: 100 });
  });

  demoTest("screenshots of the demo and the agent panel, and the DOM snapshot comparison", async ({ page, received }) => {
    await page.evaluate(() => demo.app.act.open("SO-1005"));
    await page.check("#compare");
    await page.waitForSelector("#domside:not([hidden])");
    await page.waitForFunction(() => document.querySelector("#stats").textContent.includes("DOM snapshot"));
    await page.evaluate(() => { // show the context part of the answer
      const pre = document.querySelector("#context");
      const key = [...pre.querySelectorAll(".key")].find((k) => k.textContent === '"context"');
      pre.scrollTop = key.offsetTop - pre.offsetTop;
      const dom = document.querySelector("#dom"); // and the DOM snapshot at its first sensitive value
      dom.scrollTop = dom.querySelector("mark.leak").offsetTop - dom.offsetTop - 40;
    });
    await page.screenshot({ path: join(results, "demo.png") });
    await page.locator("#agent").screenshot({ path: join(results, "agent-panel.png") });
    if (process.env.UPDATE_SCREENSHOT) copyFileSync(join(results, "demo.png"), join(web, "screenshot.png"));

    // What a DOM snapshot, Playwright's aria snapshot and the CDP accessibility
    // tree of the same console hold, against the context.
    const dom = await page.evaluate(() => demo.domSnapshot());
    const aria = await page.locator("#console").ariaSnapshot();
    const cdp = await page.context().newCDPSession(page);
    const ax = JSON.stringify(await cdp.send("Accessibility.getFullAXTree"));
    await cdp.detach();
    const ctx = await page.evaluate(() => demo.pinhole.describeText({}));
    received.push(ctx);
    const planted = plantedValues(initial, initial.orders.items);
    figures.comparison = {
      contextBytes: Buffer.byteLength(ctx), domSnapshotBytes: Buffer.byteLength(dom),
      ariaSnapshotBytes: Buffer.byteLength(aria), cdpAXTreeBytes: Buffer.byteLength(ax),
      sensitiveInContext: leaks(ctx, planted).length, sensitiveInDomSnapshot: leaks(dom, planted).length,
      sensitiveInAriaSnapshot: leaks(aria, planted).length, sensitiveInCdpAXTree: leaks(ax, planted).length,
    };
    // The page holds sensitive values the way real apps do, so the comparison is honest.
    const o = initial.orders.items[4]; // SO-1005, open in the side panel
    for (const v of [initial.session.token, o.customer.email, o.customer.phone, o.payment.card, o.internalNote]) {
      assert.ok(dom.includes(v), "the DOM snapshot should hold " + v.slice(0, 12));
    }
    assert.ok(figures.comparison.sensitiveInCdpAXTree > 0);
    assert.equal(figures.comparison.sensitiveInContext, 0);
    const stats = await page.textContent("#stats");
    assert.match(stats, /sensitive values: \d+ in the DOM snapshot, 0 in the context/);
    await page.uncheck("#compare");
    await page.click("#close");
  });

  demoTest("an action executes and its after shows the changed record", async ({ page, describe, execute }) => {
    await page.evaluate(() => demo.pinhole.flush());
    const d = await describe({});
    const r = await execute({ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot: d.snapshot });
    assert.equal(r.ok, true, JSON.stringify(r));
    const changed = r.after.records.changed.find((c) => c.id === "SO-1001");
    assert.equal(changed?.fields.status, "Shipped", JSON.stringify(r.after));
    assert.ok(r.after.feedback.some((f) => f.text === "Order SO-1001 shipped with UPS" && f.source === "app"));
    assert.equal(await page.textContent('tr[data-order="SO-1001"] .status'), "Shipped");
    // Shipped orders cannot be shipped again; the schema refuses other carriers.
    const again = await execute({ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot: r.snapshot });
    assert.equal(again.error.code, "capability_unavailable");
    const bad = await execute({ capability: "order.ship", record: "SO-1007", input: { carrier: "fedex" }, snapshot: r.snapshot });
    assert.equal(bad.error.code, "invalid_input");
    assert.equal(await page.textContent('tr[data-order="SO-1007"] .status'), "Ready to ship");
  });

  demoTest("the scripted agent lists, pages, opens by id, executes and is refused record with limit", async ({ page, received }) => {
    const log = await page.evaluate(() => demo.panel.runScript());
    received.push(JSON.stringify(log));
    assert.equal(log.length, 6, JSON.stringify(log.map((s) => s.title)));
    assert.deepEqual(log[1].req, { offset: 8, limit: 8 });
    const exec = log[4].res;
    assert.equal(exec.ok, true, JSON.stringify(exec));
    assert.equal(exec.after.records.changed[0].fields.status, "Shipped");
    assert.equal(log[5].res.error.code, "record_with_window");
    assert.equal(await page.locator("#log > li").count(), 6);
  });

  demoTest("WebMCP tools appear through the polyfill and describe_context returns the context", async ({ page, received }) => {
    const tools = await page.evaluate(async () => (await document.modelContext.getTools()).map((t) => t.name));
    for (const name of ["describe_context", "order.ship", "order.open", "orders.export"]) assert.ok(tools.includes(name), `missing ${name} in ${tools}`);
    const out = await page.evaluate(() => navigator.modelContextTesting.executeTool("describe_context", "{}"));
    received.push(out);
    const text = JSON.parse(out).content[0].text;
    assert.equal(text, await page.evaluate(() => demo.pinhole.describeText({})));
    // The closed side panel's capability is no tool now; a capability tool acts through the bridge.
    await page.waitForFunction(async () => !(await document.modelContext.getTools()).some((t) => t.name === "order.refund"), null, { polling: 100 });
    const args = JSON.stringify({ snapshot: JSON.parse(text).snapshot, record: "SO-1006" });
    const opened = await page.evaluate((a) => navigator.modelContextTesting.executeTool("order.open", a), args);
    received.push(opened);
    const res = JSON.parse(JSON.parse(opened).content[0].text);
    assert.equal(res.ok, true, JSON.stringify(res));
    assert.deepEqual(res.after.redescribe.reasons.includes("modal"), true);
    await page.waitForSelector('[role=dialog][aria-label="Order SO-1006"]');
    await page.click("#close");
    const windowed = JSON.parse(JSON.parse(await page.evaluate(() => navigator.modelContextTesting.executeTool("describe_context", '{"offset":8,"limit":4}'))).content[0].text);
    assert.deepEqual(windowed.context.recordWindow, { offset: 8, limit: 4, returned: 4, total: 48, next: 12 });
  });

  demoTest("10,000 orders: bounded context, totals and timings", async ({ page, describe }) => {
    // The switch's own code path, timed: generate 10,000 orders, then the observe.
    const ms = await page.evaluate(async () => {
      const t0 = performance.now();
      demo.app.act.loadOrders(10000);
      const t1 = performance.now();
      await demo.pinhole.flush();
      const t2 = performance.now();
      for (let i = 0; i < 20; i++) await demo.pinhole.describeText({});
      return { load: t1 - t0, observe: t2 - t1, describe: (performance.now() - t2) / 20 };
    });
    await page.waitForFunction(() => document.querySelector(".count").textContent === "10,000 orders");
    assert.equal(await page.isChecked("#big"), true);
    const d = await describe({});
    assert.equal(d.context.recordsTotal, 10000);
    assert.equal(d.context.recordIdsTotal, 10000);
    assert.equal(d.context.recordIds.length, 1000);
    assert.equal(d.context.records.length, 8);
    figures.tenThousand = { contextBytes: Buffer.byteLength(JSON.stringify(d)), generateAndRenderMs: +ms.load.toFixed(1),
      observeMs: +ms.observe.toFixed(1), describeMs: +ms.describe.toFixed(2) };
    await page.uncheck("#big");
    await page.waitForFunction(() => document.querySelector(".count").textContent === "48 orders");
  });

  test("the conformance vectors replay byte for byte in Chromium", async () => {
    const p = await browser.newPage();
    try {
      await p.goto(`${server.url}vectors.html`);
      await p.waitForFunction(() => window.vectorResult, null, { timeout: 60000 });
      const r = await p.evaluate(() => window.vectorResult);
      assert.equal(r.error, undefined, r.error);
      assert.ok(r.files > 0, "no conformance vectors in testdata/vectors");
      assert.deepEqual(r.failures, []);
      figures.vectors = { files: r.files, requests: r.requests };
    } finally {
      await p.close();
    }
  });

  demoTest("a cross-origin iframe gets nothing", async ({ page, received }) => {
    await page.evaluate((src) => {
      const f = document.createElement("iframe");
      f.src = src;
      f.id = "probe";
      document.body.append(f);
    }, `${other.url}probe.html`);
    let frame;
    for (let i = 0; i < 100 && !(frame = page.frames().find((f) => f.url() === `${other.url}probe.html`)); i++) await page.waitForTimeout(100);
    assert.ok(frame, "the probe frame did not load");
    await frame.waitForFunction(() => window.probeResult, null, { timeout: 15000, polling: 100 });
    const r = await frame.evaluate(() => window.probeResult);
    received.push(JSON.stringify(r));
    assert.notEqual(r.origin, new URL(server.url).origin);
    assert.ok(r.ownWindow.refused, JSON.stringify(r.ownWindow));
    assert.ok(r.viaParent.refused, JSON.stringify(r.viaParent));
    assert.match(r.parentGlobals.refused, /SecurityError/);
    assert.ok(r.webmcp.refused || r.webmcp.got.length === 0, JSON.stringify(r.webmcp));
    assert.doesNotMatch(JSON.stringify(r), /recordIds|SO-10/);
    await page.evaluate(() => document.getElementById("probe").remove());
  });

  demoTest("the extension channel answers only a proper handshake, and only on the requesting port", async ({ page, received }) => {
    const r = await page.evaluate(async () => {
      const seen = [];
      const onMessage = (e) => { if (e.data && typeof e.data === "object") seen.push(e.data); };
      window.addEventListener("message", onMessage);
      const quiet = (ms) => new Promise((done) => setTimeout(done, ms));
      const origin = location.origin;
      // A request without a handshake, and hellos that are malformed.
      window.postMessage({ id: 1, method: "describe" }, origin);
      window.postMessage({ pinhole: "hello", channel: "pinhole", nonce: "short", v: 1 }, origin);
      window.postMessage({ pinhole: "hello", channel: "pinhole", nonce: "0123456789abcdef", v: 99 }, origin);
      await quiet(500);
      const refused = seen.filter((m) => m.pinhole === "welcome" || "result" in m).length;
      // Two proper handshakes: two ports.
      const connect = (nonce) => new Promise((resolve, reject) => {
        const on = (e) => {
          if (e.data?.pinhole === "welcome" && e.data.nonce === nonce) {
            window.removeEventListener("message", on);
            resolve(e.ports[0]);
          }
        };
        window.addEventListener("message", on);
        window.postMessage({ pinhole: "hello", channel: "pinhole", nonce, v: 1 }, origin);
        setTimeout(() => reject(new Error("no welcome")), 5000);
      });
      const a = await connect("nonce-a-0123456789");
      const b = await connect("nonce-b-0123456789");
      const onB = [];
      b.onmessage = (e) => onB.push(e.data);
      const answer = await new Promise((resolve) => {
        a.onmessage = (e) => { if (e.data?.id === 7) resolve(e.data); };
        a.postMessage({ id: 7, method: "describe", params: { limit: 1 } });
      });
      await quiet(300);
      window.removeEventListener("message", onMessage);
      a.postMessage({ id: 8, method: "close" });
      b.postMessage({ id: 9, method: "close" });
      return { answer, refused, answerIds: answer.result?.context?.recordIds?.length ?? 0, onB: onB.filter((m) => "result" in m).length,
        onWindow: seen.filter((m) => "result" in m).length };
    });
    received.push(JSON.stringify(r.answer));
    assert.equal(r.refused, 0, "no welcome and no answer without a proper handshake");
    assert.equal(r.answerIds, 48, "the requesting port gets the context");
    assert.equal(r.onB, 0, "another port gets no answer to a request it did not make");
    assert.equal(r.onWindow, 0, "answers never travel on window.postMessage");
  });

  test("the example extension reads the context and runs a capability", async () => {
    const ext = join(web, "dist/extension");
    const profile = mkdtempSync(join(tmpdir(), "pinhole-ext-"));
    const ctx = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM, headless: true, viewport: { width: 1200, height: 800 },
      args: [...ARGS, `--disable-extensions-except=${ext}`, `--load-extension=${ext}`],
    });
    try {
      const sw = ctx.serviceWorkers()[0] ?? await ctx.waitForEvent("serviceworker", { timeout: 15000 });
      const extId = new URL(sw.url()).host;
      const d = await openDemo(ctx);
      const app = d.page;
      const [tab] = await sw.evaluate(() => chrome.tabs.query({ url: "http://127.0.0.1/*" }).then((ts) => ts.map((t) => t.id)));
      const popup = await ctx.newPage();
      await popup.goto(`chrome-extension://${extId}/popup.html?tab=${tab}`);
      await popup.waitForSelector("body[data-loaded=true]", { timeout: 15000 });
      const shown = await popup.textContent("#context");
      d.received.push(shown);
      assert.deepEqual(JSON.parse(shown), JSON.parse(await app.evaluate(() => demo.pinhole.describeText({}))));

      await popup.selectOption("#capability", "order.open");
      await popup.selectOption("#record", "SO-1004");
      await popup.fill("#input", "{}");
      await popup.click("#run");
      await popup.waitForSelector("body[data-ran=true]");
      const res = JSON.parse(await popup.textContent("#result"));
      d.received.push(JSON.stringify(res));
      assert.equal(res.ok, true, JSON.stringify(res));
      await app.waitForSelector('[role=dialog][aria-label="Order SO-1004"]');
      await popup.screenshot({ path: join(results, "extension-popup.png") });
      await assertNothingPlanted(d);
    } finally {
      await ctx.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  demoTest("planted sensitive values appear nowhere an agent reads, and undeclared ones never enter the module", async ({ page, received, describe, execute }) => {
    // An agent session through every way out of the page: describe (windows,
    // a selection, an error), execute and its after, WebMCP, the scripted agent.
    const d = await describe({});
    await describe({ offset: 8, limit: 8 });
    await describe({ record: ["SO-1005", "SO-1002"] });
    assert.equal((await describe({ record: ["SO-9999"] })).error.code, "unknown_record");
    const shipped = await execute({ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot: d.snapshot });
    assert.equal(shipped.ok, true, JSON.stringify(shipped));
    const opened = await execute({ capability: "order.open", record: "SO-1005", snapshot: shipped.snapshot });
    assert.equal(opened.ok, true, JSON.stringify(opened));
    await page.waitForSelector('[role=dialog][aria-label="Order SO-1005"]');
    received.push(await page.evaluate(() => navigator.modelContextTesting.executeTool("describe_context", "{}")));
    received.push(JSON.stringify(await page.evaluate(() => demo.panel.runScript())));
    assert.equal(received.length, 8);
    // The agent received records of the open side panel, so the check covers its fields.
    assert.ok(received.join("\n").includes("SO-1005"));
    await assertNothingPlanted({ page, received });
  });
});
