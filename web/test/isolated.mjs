// Runs every end-to-end test of e2e.test.mjs alone, each in a fresh Node
// process (`node --test --test-name-pattern='^<name>$'`), and fails unless
// each one passes by itself: no test may depend on another's page, state or
// results. `make test-web-isolated` runs it; arguments narrow the run to
// the tests whose names contain one of them.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const web = dirname(dirname(fileURLToPath(import.meta.url)));
const file = "test/e2e.test.mjs";
const source = readFileSync(join(web, file), "utf8");

// Every test is declared with a literal name at the start of a line; any
// other declaration (but demoTest's own call to test) fails the run rather
// than going unchecked.
const calls = source.split("\n").filter((l) => /^\s*(?:test|demoTest)\(/.test(l)).map((l) => l.trim());
const literal = /^(?:test|demoTest)\("((?:[^"\\]|\\.)+)",/;
const names = calls.filter((c) => literal.test(c)).map((c) => JSON.parse(`"${c.match(literal)[1]}"`));
const other = calls.filter((c) => !literal.test(c) && !c.startsWith("test(name, "));
if (names.length === 0 || other.length > 0) {
  console.error(`isolated: ${names.length} test names read from ${file}; declarations without a literal name: ${JSON.stringify(other)}`);
  process.exit(1);
}
if (new Set(names).size !== names.length) {
  console.error(`isolated: two tests of ${file} share a name, so one cannot be run alone`);
  process.exit(1);
}

const wanted = process.argv.slice(2);
const run = wanted.length ? names.filter((n) => wanted.some((w) => n.includes(w))) : names;
if (run.length === 0) {
  console.error(`isolated: no test name contains ${wanted.join(" or ")}`);
  process.exit(1);
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const failed = [];
const t0 = Date.now();
for (const name of run) {
  const t = Date.now();
  const r = spawnSync(process.execPath, ["--test", "--test-concurrency=1", "--test-timeout=240000",
    `--test-name-pattern=^${escape(name)}$`, file], { cwd: web, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const out = r.stdout + r.stderr;
  const count = (what) => Number(out.match(new RegExp(`^# ${what} (\\d+)$`, "m"))?.[1] ?? NaN);
  // Exactly this test ran, and passed.
  const ok = r.status === 0 && count("pass") === 1 && count("fail") === 0 && count("cancelled") === 0;
  console.log(`${ok ? "ok  " : "FAIL"} ${((Date.now() - t) / 1000).toFixed(1)}s  ${name}`);
  if (!ok) {
    failed.push(name);
    console.log(out.split("\n").map((l) => "    " + l).join("\n"));
  }
}
console.log(`isolated: ${run.length - failed.length} of ${run.length} tests pass alone (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
process.exit(failed.length ? 1 : 0);
