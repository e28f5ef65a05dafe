// functionNames (web/bench/wasmnames.mjs) on modules built here byte by
// byte: names come from the named build's name section, by V8's function
// index (imports first), and only when both builds have the same code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { functionNames } from "../bench/wasmnames.mjs";

const enc = new TextEncoder();
const str = (/** @type {string} */ s) => [s.length, ...enc.encode(s)];
const section = (/** @type {number} */ id, /** @type {number[]} */ body) => [id, body.length, ...body];

/**
 * moduleBytes: one imported function (index 0) and two of its own (1, 2),
 * whose bodies return the constants given; names, when given, for 1 and 2.
 * @param {[number, number]} consts
 * @param {string[]} [names]
 */
function moduleBytes(consts, names) {
  const body = (/** @type {number} */ c) => [4, 0, 0x41, c, 0x0b]; // size, no locals, i32.const c, end
  const parts = [
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [1, 0x60, 0, 1, 0x7f]), // type 0: [] -> [i32]
    ...section(2, [1, ...str("env"), ...str("f"), 0, 0]), // import env.f: type 0
    ...section(3, [2, 0, 0]), // two functions of type 0
    ...section(10, [2, ...body(consts[0]), ...body(consts[1])]),
  ];
  if (names) {
    const fnames = [2, 1, ...str(names[0]), 2, ...str(names[1])];
    parts.push(...section(0, [...str("name"), 1, fnames.length, ...fnames]));
  }
  const bytes = new Uint8Array(parts);
  assert.ok(WebAssembly.validate(bytes), "the test's module is valid");
  return bytes;
}

test("names by index, imports counted", () => {
  const names = functionNames(moduleBytes([1, 2]), moduleBytes([1, 2], ["runtime.mallocgc", "main.load"]));
  assert.deepEqual(names && [...names], [[1, "runtime.mallocgc"], [2, "main.load"]]);
});

test("no names when the code differs", () => {
  assert.equal(functionNames(moduleBytes([1, 2]), moduleBytes([1, 3], ["a", "b"])), null);
});

test("an empty map when the named build has no names", () => {
  assert.deepEqual(functionNames(moduleBytes([1, 2]), moduleBytes([1, 2])), new Map());
});

test("not a module", () => {
  assert.throws(() => functionNames(new Uint8Array([1, 2, 3]), moduleBytes([1, 2])), /not a WebAssembly module/);
});
