// The value rules at the boundary (js/README.md, "Values at the boundary").
import test from "node:test";
import assert from "node:assert/strict";
import { createPinhole } from "../src/index.js";
import { WASM, plainStore, recorder, settle } from "./helpers.js";

const MANIFEST = { pinhole: 1, regions: [{ id: "main", description: "Main" }], state: { v: "/v", w: "/w/inner" } };

class Money {
  constructor() {
    this.amount = "CLASS-SECRET";
  }
}

/** @param {any} v @param {any} [opts] */
async function bridgeFor(v, opts = {}) {
  const rec = recorder();
  /** @type {any[]} */
  const audit = [];
  const store = plainStore({ v, w: { inner: 1 } });
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, trace: rec.trace, onAudit: (e) => audit.push(e), ...opts });
  const observed = rec.ops("observe");
  return { p, store, rec, audit, sent: observed.length ? observed[observed.length - 1].state : undefined };
}

test("values cross by the documented rules", async () => {
  const sym = Symbol("s");
  const v = {
    finite: 1.5, nan: NaN, inf: Infinity, ninf: -Infinity, big: 12345678901234567890n, undef: undefined,
    date: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), badDate: new Date(NaN), map: new Map([["k", "MAP-SECRET"]]),
    set: new Set(["SET-SECRET"]), money: new Money(), fn: () => "FN-SECRET", sym,
    arr: [1, undefined, NaN, () => 1, new Set([1]), 2n], nil: null, nested: { ok: true, gone: undefined },
    nullProto: Object.assign(Object.create(null), { a: 1 }),
  };
  Object.defineProperty(v, "throws", { enumerable: true, get() { throw new Error("GETTER-SECRET"); } });
  const { p, sent, audit, rec } = await bridgeFor(v);
  assert.deepEqual(sent, {
    v: {
      finite: 1.5, nan: null, inf: null, ninf: null, big: "12345678901234567890", date: "2026-01-02T03:04:05.000Z",
      arr: [1, null, null, null, null, "2"], nil: null, nested: { ok: true }, nullProto: { a: 1 },
    },
    w: { inner: 1 },
  });
  const warnings = audit.filter((e) => e.kind === "boundary").map((e) => `${e.rule} ${e.path}`).sort();
  assert.deepEqual(warnings, [
    "class_instance /v/money", "getter_threw /v/throws", "invalid_date /v/badDate", "map_or_set /v/arr/4",
    "map_or_set /v/map", "map_or_set /v/set", "not_serialisable /v/arr/3", "not_serialisable /v/fn", "not_serialisable /v/sym",
  ]);
  const all = JSON.stringify(audit) + rec.sent.join("");
  assert.ok(!/SECRET/.test(all), "no left-out value reaches the module or the audit");
  const d = /** @type {any} */ (await p.describe());
  assert.equal(d.context.state.v.big, "12345678901234567890");
  p.dispose();
});

test("warnings are reported once per path", async () => {
  const { p, store, audit } = await bridgeFor({ m: new Map() });
  store.setState((s) => ({ ...s, v: { m: new Map(), x: 1 } }));
  await settle();
  assert.equal(audit.filter((e) => e.kind === "boundary").length, 1);
  p.dispose();
});

test("a cycle is an invalid_state error with its path; the app never sees a throw", async () => {
  const { p, store, audit } = await bridgeFor({ ok: 1 });
  /** @type {any} */
  const cyc = { name: "x" };
  cyc.self = { back: cyc };
  assert.doesNotThrow(() => store.setState((s) => ({ ...s, v: cyc })));
  await settle();
  const d = /** @type {any} */ (await p.describe());
  assert.equal(d.error.code, "invalid_state");
  assert.equal(d.error.param, "/v/self/back");
  assert.ok(audit.some((e) => e.kind === "sync_error" && e.path === "/v/self/back"));
  // Once the store is sane again, the bridge recovers by itself.
  store.setState((s) => ({ ...s, v: { ok: 2 } }));
  await settle();
  assert.deepEqual(/** @type {any} */ (await p.describe()).context.state.v, { ok: 2 });
  p.dispose();
});

test("a value nested deeper than the limit is an invalid_state error", async () => {
  /** @type {any} */
  let deep = "leaf";
  for (let i = 0; i < 100; i++) deep = { d: deep };
  const { p } = await bridgeFor(deep);
  const d = /** @type {any} */ (await p.describe());
  assert.equal(d.error.code, "invalid_state");
  assert.match(d.error.message, /deeper than 64 levels/);
  assert.ok(d.error.param.startsWith("/v/d/d/d"));
  p.dispose();
});

test("a Proxy whose traps throw is left out, not fatal", async () => {
  const hostile = new Proxy({}, { ownKeys() { throw new Error("PROXY-SECRET"); }, getPrototypeOf() { return Object.prototype; } });
  const { p, sent, audit } = await bridgeFor({ a: 1, hostile });
  assert.deepEqual(sent.v, { a: 1 });
  assert.ok(audit.some((e) => e.kind === "boundary" && e.path === "/v/hostile"));
  p.dispose();
});
