// One list of error codes: the Go constants of internal/wire/errors.go, the
// ErrorCode union of src/types.ts and the bridge's ERROR_CODES must name the
// same codes, and every code the bridge's sources produce must be listed.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { ERROR_CODES, errorOf } from "../src/index.js";

const read = (/** @type {string} */ rel) => readFileSync(new URL(rel, import.meta.url), "utf8");

/**
 * goCodes reads every `CodeX = "x"` constant of a Go source file.
 * @param {string} src
 */
export function goCodes(src) {
  return [...src.matchAll(/^\s*Code[A-Za-z0-9]*\s*=\s*"([a-z_]+)"/gm)].map((m) => m[1]);
}

/**
 * unionCodes reads the string literals of `export type ErrorCode = ...;`.
 * @param {string} src
 */
export function unionCodes(src) {
  const m = /export type ErrorCode\s*=([^;]*);/.exec(src);
  assert.ok(m, "types.ts declares export type ErrorCode");
  return [...m[1].matchAll(/"([a-z_]+)"/g)].map((x) => x[1]);
}

/** @param {string[]} a @param {string[]} b what a has and b lacks */
const missing = (a, b) => a.filter((x) => !b.includes(x));

test("the Go list, the TypeScript union and ERROR_CODES name the same codes", () => {
  const go = goCodes(read("../../internal/wire/errors.go"));
  const ts = unionCodes(read("../src/types.ts"));
  const js = [...ERROR_CODES];
  assert.ok(go.length >= 15, `found ${go.length} Go codes`);
  for (const [name, list] of /** @type {const} */ ([["Go", go], ["types.ts", ts], ["ERROR_CODES", js]])) {
    assert.equal(new Set(list).size, list.length, `${name} lists a code twice`);
  }
  assert.deepEqual(missing(go, ts), [], "Go codes missing from the ErrorCode union");
  assert.deepEqual(missing(ts, go), [], "ErrorCode codes missing from internal/wire/errors.go");
  assert.deepEqual(missing(go, js), [], "Go codes missing from ERROR_CODES");
  assert.deepEqual(missing(js, go), [], "ERROR_CODES codes missing from internal/wire/errors.go");
  assert.ok(Object.isFrozen(ERROR_CODES));
});

test("the parsers notice a code on one side only", () => {
  const go = goCodes('const (\n\tCodeA = "a_code"\n\tCodeB  = "b_code"\n)\nvar x = "CodeC"\n');
  assert.deepEqual(go, ["a_code", "b_code"]);
  assert.deepEqual(unionCodes('export type ErrorCode =\n  | "a_code"\n  | "c_code";'), ["a_code", "c_code"]);
  assert.deepEqual(missing(go, ["a_code", "c_code"]), ["b_code"]);
});

test("every error code written in the bridge's sources is listed", () => {
  const dir = new URL("../src/", import.meta.url);
  /** @type {string[]} */
  const used = [];
  for (const f of readdirSync(dir)) {
    if (!f.endsWith(".js")) continue;
    const src = readFileSync(new URL(f, dir), "utf8");
    for (const m of src.matchAll(/(?:errorOf\(|code: )"([a-z_]+)"/g)) used.push(m[1]);
  }
  assert.ok(used.length > 10, `found ${used.length} uses`);
  assert.deepEqual(missing(used, [...ERROR_CODES]), []);
});

test("errorOf takes code, message, then param, like Go's error constructor", () => {
  assert.deepEqual(errorOf("invalid_input", "bad", "/a"), { error: { code: "invalid_input", message: "bad", param: "/a" } });
  assert.deepEqual(errorOf("not_loaded", "gone"), { error: { code: "not_loaded", message: "gone" } });
});

test("a failed fetch of the module names its URL, and Vite's pre-bundle folder says what to set", async () => {
  const { fetchFailed, notWasm } = await import("../src/module.js");
  const r = new Response("not found", { status: 404, headers: { "content-type": "text/html" } });
  Object.defineProperty(r, "url", { value: "http://localhost:5173/assets/pinhole.wasm?sig=secret" });
  const e = fetchFailed(r);
  assert.match(e.message, /status 404: http:\/\/localhost:5173\/assets\/pinhole\.wasm \(content-type text\/html\)/);
  assert.doesNotMatch(e.message, /secret/, "the query stays out of errors");
  assert.doesNotMatch(e.message, /optimizeDeps/);
  const page = new TextEncoder().encode("<!doctype html>");
  const vite = notWasm(page, "http://localhost:5173/node_modules/.vite/pinhole.wasm (content-type text/html)");
  assert.match(String(vite?.message), /optimizeDeps: \{ exclude: \["@pinholectx\/pinhole"\] \}/);
  assert.doesNotMatch(String(notWasm(page, "http://localhost:5173/pinhole.wasm")?.message), /optimizeDeps/);
});
