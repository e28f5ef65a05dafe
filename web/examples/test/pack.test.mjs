// The packed tarball as a stranger gets it: its contents, an install into an
// empty project (no `wasm` option anywhere), a Node app that describes,
// executes a capability and gets `after`, and esbuild bundles of the package
// in ESM and in IIFE format that print no warning. `make pack` writes the
// tarball; PINHOLE_TGZ names another one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");
const version = JSON.parse(readFileSync(join(repo, "js/package.json"), "utf8")).version;
const tgz = resolve(process.env.PINHOLE_TGZ ?? join(repo, `build/pinholectx-pinhole-${version}.tgz`));

/** A temporary project with the tarball installed, shared by the tests below. */
let project;
function installed() {
  if (project) return project;
  project = mkdtempSync(join(tmpdir(), "pinhole-pack-"));
  process.on("exit", () => rmSync(project, { recursive: true, force: true }));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "empty-app", private: true, type: "module" }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", tgz],
    { cwd: project, stdio: ["ignore", "ignore", "inherit"] });
  return project;
}

test("the tarball holds the module, the sources, the declarations and the docs, and nothing else", () => {
  assert.ok(existsSync(tgz), `${tgz} is missing: run make pack`);
  const files = execFileSync("tar", ["tzf", tgz], { encoding: "utf8" }).trim().split("\n").map((f) => f.replace(/^package\//, ""));
  for (const f of ["package.json", "README.md", "pinhole.wasm", "src/index.js", "src/location.js",
    "types/index.d.ts", "types/adapters/react.d.ts", "types/extension.d.ts", "manifest.schema.json"]) {
    assert.ok(files.includes(f), `${f} is not in the tarball`);
  }
  for (const f of ["LICENSE", "THIRD_PARTY_NOTICES.md"]) {
    assert.ok(files.includes(f), `${f} is not in the tarball`);
    assert.equal(execFileSync("tar", ["xzOf", tgz, `package/${f}`], { encoding: "utf8" }), readFileSync(join(repo, f), "utf8"), f);
  }
  const stray = files.filter((f) => !/^(package\.json|README\.md|LICENSE|THIRD_PARTY_NOTICES\.md|pinhole\.wasm|manifest\.schema\.json|src\/.+\.(js|ts)|types\/.+\.d\.ts)$/.test(f));
  assert.deepEqual(stray, [], "files the package should not ship");
  const wasm = execFileSync("tar", ["xzOf", tgz, "package/pinhole.wasm"], { maxBuffer: 1 << 26 });
  assert.deepEqual(wasm, readFileSync(join(repo, "build/pinhole.wasm")), "the packed module is not build/pinhole.wasm");
  // Every export the package declares exists in it.
  const pkg = JSON.parse(execFileSync("tar", ["xzOf", tgz, "package/package.json"], { encoding: "utf8" }));
  for (const [sub, target] of Object.entries(pkg.exports)) {
    for (const file of typeof target === "string" ? [target] : Object.values(target)) {
      assert.ok(files.includes(file.replace(/^\.\//, "")), `export ${sub} points at ${file}, not in the tarball`);
    }
  }
});

test("installed into an empty project, a Node app describes, executes and gets after with no wasm option", () => {
  const dir = installed();
  for (const f of ["app.mjs", "pinhole.manifest.json"]) copyFileSync(join(here, "../node", f), join(dir, f));
  const out = JSON.parse(execFileSync(process.execPath, ["app.mjs"], { cwd: dir, encoding: "utf8" }));
  const { context, refused, shipped } = out;
  assert.deepEqual(context.context.recordIds, ["A-1", "A-2"]);
  assert.equal(context.context.records[0].fields.email, "a***@example.com", "e-mail is masked");
  assert.deepEqual(context.context.unavailable.map((u) => u.record), ["A-2"]);
  const text = JSON.stringify(out);
  for (const secret of ["tok_live_4242", "tok_live_1881", "sk_live_secret", "ada@example.com"]) {
    assert.ok(!text.includes(secret), `${secret} reached the agent`);
  }
  assert.equal(refused.error.code, "capability_unavailable");
  assert.equal(shipped.ok, true);
  assert.equal(shipped.after.from, context.snapshot);
  assert.deepEqual(shipped.after.records.changed, [{ id: "A-1", region: "orders", fields: { status: "shipped" } }]);
});

test("a missing module says what to do instead of a bare ENOENT", () => {
  const dir = installed();
  const wasm = join(dir, "node_modules/@pinholectx/pinhole/pinhole.wasm");
  const saved = readFileSync(wasm);
  rmSync(wasm);
  try {
    writeFileSync(join(dir, "missing.mjs"), `import { createPinhole } from "@pinholectx/pinhole";
await createPinhole({ manifest: { pinhole: 1 }, store: { getState: () => ({}), subscribe: () => () => {} } })
  .then(() => console.log("loaded"), (e) => console.log(e.message));`);
    const msg = execFileSync(process.execPath, ["missing.mjs"], { cwd: dir, encoding: "utf8" });
    assert.match(msg, /the package has no pinhole\.wasm: install the packed tarball/);
  } finally {
    writeFileSync(wasm, saved);
  }
});

for (const format of ["esm", "iife"]) {
  test(`esbuild bundles the installed package as ${format} for browsers without a warning`, async () => {
    const dir = installed();
    writeFileSync(join(dir, "entry.js"), `import { createPinhole } from "@pinholectx/pinhole";
import { connectFromContentScript } from "@pinholectx/pinhole/extension";
globalThis.app = { createPinhole, connectFromContentScript };`);
    const r = await esbuild.build({
      entryPoints: [join(dir, "entry.js")], bundle: true, format, platform: "browser", write: false,
      absWorkingDir: dir, logLevel: "silent", outdir: join(dir, "out"),
    });
    assert.deepEqual(r.warnings.map((w) => w.text), [], "esbuild warned");
    assert.deepEqual(r.errors, []);
    const js = r.outputFiles.find((f) => f.path.endsWith(".js")).text;
    assert.match(js, /pinhole\.wasm/, "the bundle lost the module's location");
  });
}

test("the demo's own esbuild build (web/build.mjs, ESM and IIFE entries) prints no warning", () => {
  const r = spawnSync(process.execPath, ["build.mjs"], { cwd: resolve(here, "../.."), encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout + r.stderr;
  assert.match(out, /dist\/extension\/content\.js/, "esbuild printed no summary: the check would see nothing");
  assert.doesNotMatch(out, /warning/i, out);
});

test("npm pack without npm ci says what to do (no tsc from PATH, no half-built package)", () => {
  const root = mkdtempSync(join(tmpdir(), "pinhole-nodeps-"));
  try {
    const js = join(root, "js");
    for (const f of ["package.json", "tsconfig.json", "README.md", "src", "scripts"]) {
      cpSync(join(repo, "js", f), join(js, f), { recursive: true });
    }
    cpSync(join(repo, "build/pinhole.wasm"), join(root, "build/pinhole.wasm"));
    const r = spawnSync("npm", ["pack", "--loglevel=error"], { cwd: js, encoding: "utf8" });
    assert.notEqual(r.status, 0, "npm pack succeeded without the package's TypeScript");
    assert.match(r.stderr, /typescript is not installed: run `npm ci` in js\/ first \(`make pack` does both\)/, r.stderr);
    assert.ok(!existsSync(join(js, "pinhole.wasm")), "a failed prepack left a copy of the module behind");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
