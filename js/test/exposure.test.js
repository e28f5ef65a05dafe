// Least exposure at the boundary: canaries planted in every undeclared path
// of the store never appear in any byte the bridge sends into the module.
import test from "node:test";
import assert from "node:assert/strict";
import { createPinhole } from "../src/index.js";
import { WASM, MANIFEST, ordersState, plainStore, recorder, settle, setStatus } from "./helpers.js";

/** Splits a JSON Pointer (independently of the bridge's own code). */
const tokens = (/** @type {string} */ p) => (p === "" ? [] : p.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~")));
/** @param {string[]} pre @param {string[]} path */
const prefixOf = (pre, path) => pre.length <= path.length && pre.every((t, i) => t === path[i]);

/**
 * declared reports whether a leaf path is covered by the module's reads.
 * @param {{paths: string[], collections: {from: string, items: string[]}[]}} reads
 * @param {string[]} path
 */
function declared(reads, path) {
  if (reads.paths.some((p) => prefixOf(tokens(p), path))) return true;
  return reads.collections.some((c) => {
    const from = tokens(c.from);
    if (!prefixOf(from, path) || path.length <= from.length || !/^[0-9]+$/.test(path[from.length])) return false;
    const rest = path.slice(from.length + 1);
    return c.items.some((i) => prefixOf(tokens(i), rest));
  });
}

/**
 * plant replaces every undeclared leaf with a canary and adds undeclared
 * keys at every object level; returns the canaries.
 * @param {any} v @param {string[]} path @param {any} reads @param {string[]} canaries
 */
function plant(v, path, reads, canaries) {
  if (v === null || typeof v !== "object") {
    if (declared(reads, path)) return v;
    const c = `CANARY${canaries.length}X`;
    canaries.push(c);
    return c;
  }
  if (Array.isArray(v)) return v.map((x, i) => plant(x, [...path, String(i)], reads, canaries));
  /** @type {Record<string, any>} */
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k] = plant(x, [...path, k], reads, canaries);
  const extra = [...path, "zzSecret"];
  if (!declared(reads, extra)) {
    const c = `CANARY${canaries.length}X`;
    canaries.push(c);
    out.zzSecret = { token: c, nested: [c] };
  }
  return out;
}

test("undeclared store data never crosses into the module", async () => {
  const rec = recorder();
  // Learn the reads from a first bridge's load answer.
  const probe = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(ordersState()), trace: rec.trace });
  const reads = JSON.parse(rec.answers[0]).reads;
  probe.dispose();
  assert.ok(reads.paths.length > 0 && reads.collections.length > 0);

  /** @type {string[]} */
  const canaries = [];
  const state = plant(ordersState(), [], reads, canaries);
  assert.ok(canaries.length > 500, `planted ${canaries.length} canaries`);
  const rec2 = recorder();
  const store = plainStore(state);
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, trace: rec2.trace });
  await p.describe();
  await p.describe({ record: ["SO-1003"] });
  // Declared and undeclared changes, through the patch path.
  store.setState((s) => setStatus(s, 3, "Shipped"));
  await settle();
  store.setState((s) => ({ ...s, session: { ...s.session, token: "CANARY-late-token" } }));
  await settle();
  store.setState((s) => {
    const items = [...s.orders.items, { ...s.orders.items[0], number: "SO-9999", payment: { card: "4111", authCode: "CANARY-new-item" } }];
    return { ...s, orders: { ...s.orders, items } };
  });
  await settle();
  await p.describe();
  p.dispose();

  const bytes = rec2.sent.join("\n");
  assert.ok(bytes.includes("SO-9999"), "declared changes were sent");
  assert.ok(bytes.includes("Lena Zhou") || bytes.includes('"customer"'), "declared values were sent");
  assert.ok(!bytes.includes("CANARY"), `a canary crossed: ${bytes.match(/CANARY[^"]*/)?.[0]}`);
  assert.ok(!bytes.includes("zzSecret"), "undeclared keys never cross");
  // Every declared string the module needed did cross: the describe shows SO-9999.
});

test("only declared keys of an object are read; undeclared getters are never called", async () => {
  let touched = 0;
  const session = { tenant: "acme", role: "clerk" };
  Object.defineProperty(session, "token", { enumerable: true, get() { touched++; return "secret"; } });
  const state = { ...ordersState(), session };
  const rec = recorder();
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store: plainStore(state), trace: rec.trace });
  await p.describe();
  p.dispose();
  assert.equal(touched, 0, "the undeclared getter was never read");
  assert.ok(!rec.sent.join("").includes("secret"));
});

test("a session scope the bridge cannot read withholds the context: no token is shared across tenants", async () => {
  // A class instance (or a Map, a throwing getter) is left out at the
  // boundary; a cyclic object is cut. Either way the module cannot tell
  // tenants apart, so it gives no context, no action and no after until
  // the scope is a plain value again.
  class Tenant { constructor(/** @type {string} */ name) { this.name = name; } }
  /** @type {any} */
  const cyclic = { name: "globex" };
  cyclic.self = cyclic;
  for (const [what, tenant] of [["a class instance", new Tenant("acme")], ["a cyclic object", cyclic]]) {
    const state = ordersState();
    state.session.tenant = tenant;
    const store = plainStore(state);
    /** @type {any[]} */
    const audit = [];
    const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, actions: { "order.ship": () => {} }, onAudit: (e) => audit.push(e) });
    const d = /** @type {any} */ (await p.describe());
    assert.equal(d.error?.code, "invalid_state", `${what}: ${JSON.stringify(d).slice(0, 200)}`);
    assert.equal(d.error.param, "/session/tenant");
    assert.ok(audit.some((e) => e.kind === "boundary" && e.path === "/session/tenant"), `${what}: the boundary event names the scope`);
    const x = /** @type {any} */ (await p.execute({ capability: "order.ship", record: "SO-1001", input: { carrier: "ups" }, snapshot: "s1" }));
    assert.equal(x.error?.code, "invalid_state", `${what}: execute while withheld`);
    store.setState((s) => ({ ...s, session: { ...s.session, tenant: "acme-shop" } })); // a plain value again
    await p.flush();
    const back = /** @type {any} */ (await p.describe({ limit: 1 }));
    assert.match(back.context?.records[0].fields.phone, /^al_/, `${what}: the context comes back with the scope`);
    p.dispose();
  }
});

test("a session scope with a part that cannot cross is left out whole: tenants that differ only there share no token", async () => {
  // { id: <class instance> } would cross as {} for every tenant.
  class ObjectId { constructor(/** @type {string} */ hex) { this.hex = hex; } }
  const state = ordersState();
  state.session.tenant = { id: new ObjectId("acme"), region: "eu" };
  const store = plainStore(state);
  /** @type {any[]} */
  const audit = [];
  const p = await createPinhole({ wasm: WASM, manifest: MANIFEST, store, onAudit: (e) => audit.push(e) });
  const d = /** @type {any} */ (await p.describe());
  assert.equal(d.error?.code, "invalid_state", JSON.stringify(d).slice(0, 200));
  assert.ok(audit.some((e) => e.kind === "snapshot_warnings" && e.warnings.some((/** @type {string} */ w) => w.startsWith("/session/tenant: the session scope"))),
    "the app is told the context is withheld");
  store.setState((s) => ({ ...s, session: { ...s.session, tenant: { id: "acme", region: "eu" } } })); // all plain: crosses whole
  await p.flush();
  const back = /** @type {any} */ (await p.describe({ limit: 1 }));
  assert.match(back.context?.records[0].fields.phone, /^al_/);
  p.dispose();
});
