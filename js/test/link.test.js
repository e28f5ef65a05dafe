// Snapshot ids across module restarts: the link maps the fields that hold
// snapshot ids by name, per op, on parsed answers, whatever the order of
// the fields, and leaves every other field alone.
import test from "node:test";
import assert from "node:assert/strict";
import { Link, seqOf } from "../src/link.js";

/** A link whose instances handed out ten snapshots before the current one. */
function restarted() {
  const l = new Link(/** @type {any} */ (null), { manifestText: "{}", key: "k".repeat(16) });
  l.seqOffset = 10;
  return l;
}

test("snapshot fields are mapped by name, in any field order", () => {
  const l = restarted();
  const cases = [
    ["describe", '{"limits":{"maxLimit":5},"snapshot":"s2","context":{"snapshot":"s1","recordIds":["s2"]}}',
      { limits: { maxLimit: 5 }, snapshot: "s12", context: { snapshot: "s1", recordIds: ["s2"] } }],
    ["after", '{"to":"s3","records":{"from":"s1"},"from":"s2"}', { to: "s13", records: { from: "s1" }, from: "s12" }],
    ["observe", '{"changed":true,"snapshot":"s4","recordsTotal":2}', { changed: true, snapshot: "s14", recordsTotal: 2 }],
    ["prepare", '{"ok":true,"input":{"snapshot":"s1"},"snapshot":"s1"}', { ok: true, input: { snapshot: "s1" }, snapshot: "s11" }],
    ["audit", '{"events":[{"op":"describe","snapshot":"s2"},{"op":"load"}],"dropped":0}',
      { events: [{ op: "describe", snapshot: "s12" }, { op: "load" }], dropped: 0 }],
    ["describe", '{"error":{"code":"stale_snapshot","message":"m","param":"snapshot"}}',
      { error: { code: "stale_snapshot", message: "m", param: "snapshot" } }],
    ["version", '{"version":"s1","snapshot":"s1"}', { version: "s1", snapshot: "s1" }],
  ];
  for (const [op, text, want] of cases) {
    assert.deepEqual(l.parse(/** @type {string} */ (op), /** @type {string} */ (text)), want, `${op} ${text}`);
    assert.deepEqual(JSON.parse(l.text(/** @type {string} */ (op), /** @type {string} */ (text))), want, `${op} as text`);
  }
  assert.equal(l.maxSeq, 4, "the highest module id seen is kept for the next restart");
});

test("without a restart the answer text is the module's exact bytes", () => {
  const l = new Link(/** @type {any} */ (null), { manifestText: "{}", key: "k".repeat(16) });
  const text = '{"snapshot":"s2","context":{"page":{"title":"a\\u003cb"}}}';
  assert.equal(l.text("describe", text), text);
  assert.equal(l.parse("describe", text).snapshot, "s2");
});

test("ids agents saw map back to the module's, or null before the restart", () => {
  const l = restarted();
  assert.equal(l.external("s3"), "s13");
  assert.equal(l.internal("s13"), "s3");
  assert.equal(l.internal("s10"), null, "an id from before the restart is stale");
  assert.equal(l.internal("x"), "x", "what is no id passes to the module, which refuses it");
  assert.deepEqual(["s0", "s12", "s01x", "12", ""].map(seqOf), [0, 12, -1, -1, -1]);
});
