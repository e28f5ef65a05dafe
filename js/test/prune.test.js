// The shared pruning cases (testdata/prune), which the Go core replays too
// (internal/prune, internal/patch): the bridge's slice of a state, and the
// slice after a JSON Patch, must be what the module keeps.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { buildReadTree, Pruner, NONE, parsePointer, isCut } from "../src/reads.js";

/** @param {string} name */
const cases = (name) =>
  readFileSync(new URL(`../../testdata/prune/${name}.jsonl`, import.meta.url), "utf8")
    .split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));

/** @param {any} reads @param {any} state */
function slice(reads, state) {
  /** @type {string[]} */
  const warnings = [];
  const out = new Pruner(buildReadTree(reads), (rule, path) => warnings.push(`${rule} ${path}`)).slice(state, NONE, undefined, false);
  return { out, warnings };
}

/** An RFC 6901 array index: "0" or digits without a leading zero. */
const INDEX = /^(0|[1-9][0-9]*)$/;

/**
 * applyRaw applies an RFC 6902 patch to a copy of doc, as the store itself
 * would change; it throws when the patch does not apply.
 * @param {any} doc @param {any[]} ops
 */
function applyRaw(doc, ops) {
  let root = structuredClone(doc);
  /** @param {string[]} toks */
  const parentOf = (toks) => {
    let v = root;
    for (const t of toks.slice(0, -1)) {
      if (Array.isArray(v)) {
        if (!INDEX.test(t) || Number(t) >= v.length) throw new Error("no such parent");
        v = v[Number(t)];
      } else if (v !== null && typeof v === "object" && Object.hasOwn(v, t)) v = v[t];
      else throw new Error("no such parent");
    }
    return v;
  };
  /** @param {string[]} toks */
  const get = (toks) => {
    if (toks.length === 0) return root;
    const p = parentOf(toks);
    const last = toks[toks.length - 1];
    if (Array.isArray(p)) {
      if (!INDEX.test(last) || Number(last) >= p.length) throw new Error("no such path");
      return p[Number(last)];
    }
    if (p === null || typeof p !== "object" || !Object.hasOwn(p, last)) throw new Error("no such path");
    return p[last];
  };
  /** @param {string[]} toks */
  const remove = (toks) => {
    get(toks);
    const p = parentOf(toks);
    const last = toks[toks.length - 1];
    if (Array.isArray(p)) p.splice(Number(last), 1);
    else delete p[last];
  };
  /** @param {string[]} toks @param {any} value */
  const add = (toks, value) => {
    if (toks.length === 0) {
      root = value;
      return;
    }
    const p = parentOf(toks);
    const last = toks[toks.length - 1];
    if (Array.isArray(p)) {
      if (last === "-") p.push(value);
      else if (INDEX.test(last) && Number(last) <= p.length) p.splice(Number(last), 0, value);
      else throw new Error("bad index");
    } else if (p !== null && typeof p === "object") p[last] = value;
    else throw new Error("parent is not a container");
  };
  for (const op of ops) {
    const path = parsePointer(op.path);
    switch (op.op) {
      case "add":
        add(path, structuredClone(op.value));
        break;
      case "remove":
        remove(path);
        break;
      case "replace":
        get(path);
        if (path.length) remove(path);
        add(path, structuredClone(op.value));
        break;
      case "test":
        assert.deepEqual(get(path), op.value);
        break;
      case "move":
      case "copy": {
        const from = parsePointer(op.from);
        const v = structuredClone(get(from));
        if (op.op === "move") {
          if (from.length < path.length && from.every((t, i) => t === path[i])) throw new Error("move into itself");
          remove(from);
        }
        add(path, v);
        break;
      }
      default:
        throw new Error("unknown op");
    }
  }
  return root;
}

test("state cases: the bridge's slice is what the module keeps", () => {
  const all = cases("state");
  assert.ok(all.length > 20);
  for (const c of all) {
    const { out } = slice(c.reads, c.state);
    // Member order matters: the module keeps the store's order.
    assert.equal(JSON.stringify(out), JSON.stringify(c.out), c.name);
  }
});

test("patch cases: pruning after a change gives what the module keeps after the patch", () => {
  const all = cases("patch");
  assert.ok(all.length > 15);
  for (const c of all) {
    if (c.raw === "fails") {
      // Not an RFC 6902 patch of this state at all; the module drops what
      // names no declared item.
      assert.throws(() => applyRaw(c.state, c.patch), c.name);
      continue;
    }
    if (c.error) {
      // The module refuses: the value comes from where it never looked. So
      // does the same patch against the declared slice.
      assert.doesNotThrow(() => applyRaw(c.state, c.patch), c.name);
      assert.throws(() => applyRaw(slice(c.reads, c.state).out, c.patch), c.name);
      continue;
    }
    const { out } = slice(c.reads, applyRaw(c.state, c.patch));
    assert.equal(JSON.stringify(out), JSON.stringify(c.out), c.name);
  }
});

test("a cycle is cut where it is declared, and the warning names no data key", () => {
  /** @type {any} */
  const cyc = { ghp_0123456789abcdefghijklmnopqrstuvwxyzAB: { back: null } };
  cyc.ghp_0123456789abcdefghijklmnopqrstuvwxyzAB.back = cyc;
  const reads = { paths: ["/v", "/w"], collections: [] };
  const { out, warnings } = slice(reads, { v: cyc, w: 1 });
  assert.deepEqual(out, { v: { $cut: "cycle" }, w: 1 });
  assert.deepEqual(warnings, ["cycle /v"]);
});

test("an array longer than MAX_ARRAY_LENGTH (a sparse array's length) is cut at once, whole value or collection", () => {
  /** @type {any[]} */
  const sparse = [];
  sparse[2 ** 32 - 2] = { id: "x", name: "far away" }; // length 2^32-1: reading each place would hold the page
  const start = performance.now();
  const { out, warnings } = slice({ paths: ["/v"], collections: [{ from: "/c", items: ["/id"] }] }, { v: { list: sparse }, c: sparse });
  assert.ok(performance.now() - start < 1000, "the slice read the array's places");
  assert.deepEqual(out, { v: { $cut: "size" }, c: { $cut: "size" } });
  assert.deepEqual(warnings.sort(), ["size /c", "size /v"]);
  // At the limit, an array is read as it is.
  const { out: small } = slice({ paths: ["/v"], collections: [] }, { v: [1, , 3] });
  assert.deepEqual(small, { v: [1, null, 3] });
});

test("a shared subtree is not a cycle", () => {
  const shared = { a: 1 };
  const { out } = slice({ paths: ["/v"], collections: [] }, { v: { x: shared, y: [shared, shared] } });
  assert.deepEqual(out, { v: { x: { a: 1 }, y: [{ a: 1 }, { a: 1 }] } });
});

test("a too-deep field in one item costs that field only; warnings name declared paths", () => {
  /** @type {any} */
  let deep = "leaf";
  for (let i = 0; i < 100; i++) deep = { ghp_0123456789abcdefghijklmnopqrstuvwxyzAB: deep };
  const reads = { paths: [], collections: [{ from: "/c", items: ["/id", "/meta"] }] };
  const { out, warnings } = slice(reads, { c: [{ id: "1", meta: deep }, { id: "2", meta: { ok: 1 } }] });
  assert.deepEqual(out, { c: [{ id: "1", meta: { $cut: "depth" } }, { id: "2", meta: { ok: 1 } }] });
  assert.deepEqual(warnings, ["depth /c/0/meta"]);
});

test("warnings about parts of a value name the value's declared path, not data keys", () => {
  const v = { ghp_0123456789abcdefghijklmnopqrstuvwxyzAB: () => 1, inner: { ["sk_live_" + "0123456789abcdefghijklmn"]: Symbol("s") } };
  const { out, warnings } = slice({ paths: ["/v"], collections: [] }, { v });
  assert.deepEqual(out, { v: { inner: {} } });
  // The bridge reports each rule and path once; the pruner says it twice.
  assert.deepEqual([...new Set(warnings)], ["not_serialisable /v"]);
  assert.ok(!/ghp_|sk_live/.test(warnings.join()));
});

test("warnings deep in collections name the item and the declared key, escaped; the places read before them do not leak into later paths", () => {
  const throwing = { get "a/b"() { throw new Error("no"); }, n: 1 };
  const reads = { paths: ["/x~y/z"], collections: [{ from: "/list", items: ["/a~1b", "/n", "/when"] }] };
  const state = {
    list: [{ "a/b": 1, n: 1, when: new Date(NaN) }, throwing, { "a/b": () => 0, n: 3 }],
    "x~y": { z: new Map() },
  };
  const { out, warnings } = slice(reads, state);
  assert.deepEqual(out, { list: [{ "a/b": 1, n: 1 }, { n: 1 }, { n: 3 }] });
  assert.deepEqual(warnings, ["invalid_date /list/0/when", "getter_threw /list/1/a~1b", "not_serialisable /list/2/a~1b", "map_or_set /x~0y/z"]);
});

test("a slice started from a warning (an onAudit handler writing to a reactive store) leaves the outer slice's paths whole", () => {
  const reads = { paths: [], collections: [{ from: "/list", items: ["/a", "/b/c"] }] };
  /** @type {string[]} */
  const warnings = [];
  let nested = false;
  const pruner = new Pruner(buildReadTree(reads), (rule, path) => {
    warnings.push(`${rule} ${path}`);
    if (!nested) {
      nested = true;
      pruner.slice({ list: [{ a: 1 }, { a: 2 }, { a: 3 }, { a: 4 }, { b: { c: () => 0 } }] }, NONE, undefined, false);
    }
  });
  pruner.slice({ list: [{ a: () => 0, b: { c: new Map() } }] }, NONE, undefined, false);
  assert.deepEqual(warnings, ["not_serialisable /list/0/a", "not_serialisable /list/4/b/c", "map_or_set /list/0/b/c"]);
});

// A cut marker has one of the three reasons, as the module reads one
// (prune.IsCut): any other "$cut" member is store data.
test("isCut knows the three reasons only", () => {
  for (const reason of ["depth", "cycle", "size"]) assert.equal(isCut({ $cut: reason }), true, reason);
  for (const v of [{ $cut: "x" }, { $cut: "depth", a: 1 }, { $cut: 1 }, { cut: "depth" }, {}]) {
    assert.equal(isCut(v), false, JSON.stringify(v));
  }
});
