// A quick correctness check of the task benchmark (web/bench/tasks.mjs):
// four tasks, each solved by the DOM agent (aria snapshot and refs) and
// the Pinhole agent (contexts and capabilities) on the demo in headless
// Chromium, must succeed as checked against the app's store afterwards;
// an agent that does nothing must fail every task's check; and the aria
// snapshot reader must read roles, names, refs and table rows. Figures are
// not asserted (`make bench-tasks` measures them).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { launchOptions } from "../chromium.mjs";
import { startServer } from "../serve.mjs";
import { parseAria, tableRows } from "../bench/agents.mjs";
import { runTask, TASKS } from "../bench/tasks.mjs";

let server, browser;

before(async () => {
  server = await startServer();
  browser = await chromium.launch(launchOptions());
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const task = (name) => {
  const t = TASKS.find((x) => x.name === name);
  assert.ok(t, `no task ${name}`);
  return t;
};

for (const name of ["ship-customer-order", "ship-all-ready", "refund-after-error", "stale-snapshot"]) {
  for (const agent of /** @type {const} */ (["dom", "pinhole"])) {
    test(`${name} succeeds with the ${agent} agent`, async () => {
      const r = await runTask(browser, server.url, task(name), agent);
      assert.equal(r.failure, "", `${name} ${agent}`);
      assert.ok(r.success);
      assert.ok(r.steps >= 2 && r.tokens > 0, "the agent read and acted");
      if (agent === "pinhole") assert.equal(r.sensitive, 0, "a planted value reached the Pinhole agent");
      if (name === "stale-snapshot" && agent === "pinhole") assert.equal(r.answer.error, "stale_snapshot");
      // The side panel shows the customer's e-mail, phone, street, card and internal note: the count must see them.
      if (name === "refund-after-error" && agent === "dom") assert.ok(r.sensitiveKinds["card number"] === 1 && r.sensitive >= 5, JSON.stringify(r.sensitiveKinds));
    });
  }
}

test("an agent that does nothing fails every task", async () => {
  assert.ok(TASKS.length >= 12);
  for (const t of TASKS) {
    const r = await runTask(browser, server.url, t, "idle");
    assert.equal(r.success, false, `${t.name} counts doing nothing as done`);
    assert.equal(r.steps, 0);
  }
});

test("the aria snapshot reader finds roles, names, refs and rows", () => {
  const tree = parseAria([
    '- region "Orders" [ref=e15]:',
    "  - table [ref=e23]:",
    "    - rowgroup [ref=e24]:",
    "      - row [ref=e25]:",
    '        - columnheader "Order" [ref=e26]',
    '        - columnheader "Status" [ref=e28]',
    '        - columnheader "Total" [ref=e30]',
    "    - rowgroup [ref=e32]:",
    "      - row [ref=e33]:",
    "        - cell [ref=e34]:",
    '          - link "SO-1001" [ref=e35] [cursor=pointer]:',
    '            - /url: "#/orders/SO-1001"',
    '        - cell "Ready to ship" [ref=e37]',
    '        - cell "€1,313.83" [ref=e39]',
    "        - cell [ref=e40]:",
    '          - button "Ship" [disabled] [ref=e41]',
    '  - definition [ref=e240]: "Internal: a \\"quoted\\" note"',
  ].join("\n"));
  const rows = tableRows(tree);
  assert.equal(rows.length, 1);
  assert.equal(rows[0].id, "SO-1001");
  assert.equal(rows[0].link.ref, "e35");
  assert.equal(rows[0].status, "Ready to ship");
  assert.equal(rows[0].total, 1313.83);
  assert.deepEqual(rows[0].buttons.map((b) => [b.name, b.ref, b.attrs]), [["Ship", "e41", ["disabled"]]]);
  assert.equal(tree.children[0].children[1].text, 'Internal: a "quoted" note');
});
