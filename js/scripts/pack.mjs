// The steps around `npm pack` (package.json prepack/postpack). prepack
// builds the declarations with the TypeScript of this package's own
// devDependencies (never a tsc found on PATH), copies the module from
// ../build/pinhole.wasm and the repository's LICENSE and
// THIRD_PARTY_NOTICES.md into the package;
// postpack removes the copies, so a checkout never runs a stale module by
// accident. `make pack` runs npm ci first and writes the tarball to build/.
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const repo = dirname(pkg);
const record = join(pkg, ".packed-copies.json");
const copies = [[join(repo, "build", "pinhole.wasm"), join(pkg, "pinhole.wasm")]];
for (const f of ["LICENSE", "THIRD_PARTY_NOTICES.md"]) copies.push([join(repo, f), join(pkg, f)]);

/** fail prints what to do and exits non-zero. */
function fail(msg) {
  console.error(`pack: ${msg}`);
  process.exit(1);
}

/** wasOurs: a leftover copy from an interrupted pack (named in the record). */
function wasOurs(file) {
  try {
    return JSON.parse(readFileSync(record, "utf8")).includes(basename(file));
  } catch {
    return basename(file) === "pinhole.wasm"; // the module is never committed here
  }
}

const step = process.argv[2];
if (step === "prepack") {
  let tsc;
  try {
    tsc = createRequire(join(pkg, "package.json")).resolve("typescript/bin/tsc");
  } catch {
    fail("typescript is not installed: run `npm ci` in js/ first (`make pack` does both)");
  }
  if (!existsSync(copies[0][0])) fail("build/pinhole.wasm is missing: run `make wasm` first (`make pack` does both)");
  rmSync(join(pkg, "types"), { recursive: true, force: true });
  execFileSync(process.execPath, [tsc, "-p", join(pkg, "tsconfig.json")], { stdio: "inherit" });
  // Only files this step creates are removed again (never a committed one).
  const made = [];
  for (const [from, to] of copies) {
    if (!existsSync(from) || (existsSync(to) && !made.includes(to) && !wasOurs(to))) continue;
    copyFileSync(from, to);
    made.push(to);
  }
  writeFileSync(record, JSON.stringify(made.map((f) => basename(f))) + "\n");
} else if (step === "postpack") {
  if (existsSync(record)) {
    for (const name of JSON.parse(readFileSync(record, "utf8"))) rmSync(join(pkg, name), { force: true });
    rmSync(record);
  }
} else {
  fail("usage: node scripts/pack.mjs prepack|postpack");
}
