// The JSON Schema of manifest format 1 ships in the package: exported as
// @pinholectx/pinhole/manifest.schema.json and listed in the packed files.
// What it accepts and rejects is tested against the manifest compiler in
// cmd/internal/draft (schema_test.go).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

test("the manifest schema is exported and packed", async () => {
  const url = import.meta.resolve("@pinholectx/pinhole/manifest.schema.json");
  const schema = JSON.parse(await readFile(fileURLToPath(url), "utf8"));
  assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
  assert.deepEqual(schema.required, ["pinhole"]);
  const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
  assert.ok(pkg.files.includes("manifest.schema.json"), "package.json files lists the schema");
});
