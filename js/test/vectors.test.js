// The conformance vectors of testdata/vectors, replayed through the bridge's
// loader and WASI shim in Node: every answer must be byte-identical to the
// golden one. One fresh module instance per file.
import test from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { compileModule, createModuleInstance } from "../src/index.js";
import { WASM } from "./helpers.js";

const DIR = new URL("../../testdata/vectors/", import.meta.url);
const names = readdirSync(DIR).filter((f) => f.endsWith(".in.jsonl")).map((f) => f.slice(0, -".in.jsonl".length)).sort();

/** @param {string} text */
const lines = (text) => {
  const l = text.split("\n");
  if (l[l.length - 1] === "") l.pop();
  return l;
};

test("there are conformance vectors to replay", () => {
  assert.ok(names.length > 0, "no testdata/vectors/*.in.jsonl found");
});

test("every vector replays byte for byte", async (t) => {
  const module = await compileModule(WASM);
  for (const name of names) {
    await t.test(name, async () => {
      const ins = lines(readFileSync(new URL(`${name}.in.jsonl`, DIR), "utf8"));
      const outs = lines(readFileSync(new URL(`${name}.out.jsonl`, DIR), "utf8"));
      assert.equal(ins.length, outs.length, "as many answers as requests");
      const inst = await createModuleInstance(module);
      for (let i = 0; i < ins.length; i++) {
        assert.equal(inst.call(ins[i]), outs[i], `${name} line ${i + 1}`);
      }
    });
  }
});
