// WebMCP as Chromium itself implements it. Chromium ships document.modelContext
// behind its WebMCP feature (`--enable-features=WebMCP`; in a desktop
// browser, chrome://flags "WebMCP for testing"). No polyfill is loaded here:
// pinhole.exposeWebMCP() must find the browser's own modelContext, register its tools
// there, and the tools must answer when the browser runs them
// (modelContext.executeTool, which an agent in the browser uses), follow the
// active regions, and go away on dispose. The page loads the package's
// sources through an import map (package-server.mjs), as nobundler.test.mjs.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { launchOptions } from "../chromium.mjs";
import { appPage, openApp, servePackage } from "./package-server.mjs";

/** The flag that turns Chromium's WebMCP on. */
const WEBMCP = "--enable-features=WebMCP";

const PAGE = appPage("Pinhole and Chromium's WebMCP", `
  const setOrder = (id, change) => store.setState((s) => ({
    orders: { ...s.orders, items: s.orders.items.map((o) => (o.number === id ? { ...o, ...change } : o)) },
  }));
  const calls = [];
  const actions = {
    "order.ship": ({ record, input }) => { calls.push(["order.ship", record, input]); setOrder(record, { status: "Shipped", carrier: input.carrier }); },
    "order.open": ({ record }) => { calls.push(["order.open", record]); store.setState((s) => ({ ui: { ...s.ui, detailOpen: true, selected: record } })); },
    "order.refund": ({ input }) => { calls.push(["order.refund", input]); },
  };
  const pinhole = await createPinhole({ manifest, store: fromZustand(store), actions });
  const handle = pinhole.exposeWebMCP();
  await handle.ready;
  window.app = { pinhole, store, handle, calls };`);

let server, browser;
before(async () => {
  server = await servePackage(PAGE);
  browser = await chromium.launch(launchOptions([WEBMCP]));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** tools lists the names of the tools Chromium holds for the page, sorted. */
const tools = () => document.modelContext.getTools().then((ts) => ts.map((t) => t.name).sort());

/**
 * run executes the tool named name through Chromium's modelContext, as an
 * agent does, and returns the tool's result and its text parsed.
 * @param {{name: string, args: object}} call
 */
async function run({ name, args }) {
  const tool = (await document.modelContext.getTools()).find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  const result = JSON.parse(await document.modelContext.executeTool(tool, args));
  return { result, body: JSON.parse(result.content[0].text) };
}

test("Chromium's own WebMCP: the tools register, answer through executeTool, follow the regions and go on dispose", async () => {
  const { context, page, problems } = await openApp(browser, server.url);
  try {
    assert.equal(await page.evaluate(() => window.result?.error), undefined);

    // The browser's own modelContext, no polyfill: its methods are native code.
    assert.match(await page.evaluate(() => String(document.modelContext?.registerTool)), /\[native code\]/);
    assert.equal(await page.evaluate(() => window.app.handle.exposed), true);

    // describe_context and the capabilities of the active region (orders)
    // the app handles; order.refund belongs to the closed side panel, and
    // the app gave no handler for order.charge, orders.export and orders.view.
    assert.deepEqual(await page.evaluate(tools), ["describe_context", "order.open", "order.ship"]);
    assert.deepEqual(await page.evaluate(() => window.app.handle.refused().map((r) => [r.name, r.reason.split(":")[0]]).sort()),
      [["order.charge", "no handler"], ["orders.export", "no handler"], ["orders.view", "no handler"]]);
    // Chromium holds WebMCP's tool-name rule too: the names the bridge does not try are names it refuses.
    assert.match(await page.evaluate(() => document.modelContext.registerTool({ name: "Ship order!", description: "d", execute() {} })
      .then(() => "registered", (e) => `${e.name}: ${e.message}`)), /^InvalidStateError/);
    const listed = await page.evaluate(() => document.modelContext.getTools().then((ts) => ts.map((t) => ({
      name: t.name, readOnly: t.annotations.readOnlyHint, untrusted: t.annotations.untrustedContentHint, schema: t.inputSchema }))));
    const describe = listed.find((t) => t.name === "describe_context");
    assert.equal(describe.readOnly, true);
    assert.equal(describe.untrusted, true, "Chromium kept the hint that records are user content");
    const ship = listed.find((t) => t.name === "order.ship");
    assert.equal(ship.readOnly, false);
    assert.deepEqual(ship.schema.required, ["snapshot", "record", "input"]);
    assert.deepEqual(ship.schema.properties.input.properties.carrier.enum, ["ups", "dhl"]);

    // describe_context through the browser: the context, protected values not in plain.
    const { result: described, body: ctx } = await page.evaluate(run, { name: "describe_context", args: { limit: 4 } });
    assert.equal(described.isError, undefined);
    assert.equal(ctx.context.recordsTotal, 48);
    assert.equal(ctx.context.records.length, 4);
    const text = JSON.stringify(ctx);
    assert.doesNotMatch(text, /4111 1111 1111 1000/, "a card number reached the agent");
    assert.doesNotMatch(text, /fraud score/, "an undeclared value reached the agent");

    // A capability through the browser: the handler runs, the after comes back.
    const id = ctx.context.records[0].id;
    assert.equal(ctx.context.records[0].fields.status, "Ready to ship");
    const { result: shipped, body: after } = await page.evaluate(run, {
      name: "order.ship", args: { snapshot: ctx.snapshot, record: id, input: { carrier: "ups" } },
    });
    assert.equal(shipped.isError, undefined, JSON.stringify(after));
    assert.equal(after.ok, true);
    assert.deepEqual(await page.evaluate(() => window.app.calls), [["order.ship", id, { carrier: "ups" }]]);
    assert.deepEqual(after.after.records.changed.map((r) => [r.id, r.fields.status]), [[id, "Shipped"]]);

    // An agent's mistake is a tool error, with the error's code, and runs no handler.
    const { result: stale, body: refused } = await page.evaluate(run, {
      name: "order.ship", args: { snapshot: ctx.snapshot, record: id, input: { carrier: "ups" } },
    });
    assert.equal(stale.isError, true);
    assert.equal(refused.error.code, "stale_snapshot");
    assert.equal(await page.evaluate(() => window.app.calls.length), 1);

    // Opening the side panel activates its region: order.refund appears in Chromium's list.
    const { body: current } = await page.evaluate(run, { name: "describe_context", args: { limit: 1 } });
    const opened = await page.evaluate(run, { name: "order.open", args: { snapshot: current.snapshot, record: id } });
    assert.equal(opened.result.isError, undefined, JSON.stringify(opened.body));
    await page.waitForFunction(async () => (await document.modelContext.getTools()).some((t) => t.name === "order.refund"), null, { polling: 100 });
    // ...and goes when the panel closes: its registration's signal aborted.
    await page.evaluate(() => window.app.store.setState((s) => ({ ui: { ...s.ui, detailOpen: false } })));
    await page.waitForFunction(async () => !(await document.modelContext.getTools()).some((t) => t.name === "order.refund"), null, { polling: 100 });

    // dispose takes every tool off Chromium's list.
    await page.evaluate(() => window.app.handle.dispose());
    assert.deepEqual(await page.evaluate(tools), []);
    assert.deepEqual(await page.evaluate(() => window.app.handle.refused()), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("without the WebMCP feature, Chromium has no modelContext and exposeWebMCP says so instead of throwing", async () => {
  const plain = await chromium.launch(launchOptions());
  try {
    const page = await plain.newPage();
    await page.goto(server.url);
    await page.waitForSelector("html[data-ready]", { state: "attached" });
    assert.equal(await page.evaluate(() => window.result?.error), undefined);
    const handle = await page.evaluate(() => ({ exposed: window.app.handle.exposed, reason: window.app.handle.reason, modelContext: typeof document.modelContext }));
    assert.equal(handle.modelContext, "undefined");
    assert.equal(handle.exposed, false);
    assert.match(handle.reason, /no WebMCP modelContext/);
    // The rest of the bridge works.
    assert.equal(await page.evaluate(() => window.app.pinhole.describe({}).then((d) => d.context.recordsTotal)), 48);
  } finally {
    await plain.close();
  }
});
