// Docs that run: every ```js block of README.md and js/README.md is run as
// an ES module, unless the line before it is an HTML comment starting
// "<!-- not run:" (with the reason). A block after "<!-- continues -->"
// runs appended to the one before it; a block after "<!-- file: NAME -->"
// is not run but written as NAME into the directory the file's blocks run
// in; one after "<!-- test file: NAME -->" is written there as NAME and run
// there with `node --test NAME`, which must pass. Each runs in a fresh directory laid out like an app that installed the
// packed package: node_modules/@pinholectx/pinhole (this package's sources
// with its pinhole.wasm, so the default location is what runs),
// pinhole.manifest.json and state.json (the orders example), store.js (a
// Zustand store of the orders, test/docs/store.js, unless the file writes
// its own), and no pinhole.wasm of its own, so a block that points the wasm
// option at one fails; as in a page, globalThis.window is a window (an
// EventTarget delivering postMessage to itself, for the extension channel).
// A block passes when it runs without throwing and, where CHECKS names it,
// when the names it defines hold what the prose says.
import test from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { connectFromContentScript } from "../src/extension.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const JS = join(ROOT, "js");

/**
 * blocks returns the code blocks of a Markdown file with their language,
 * starting line, and marker (the HTML comment on the line before, if any).
 * @param {string} file
 */
export function blocks(file) {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  /** @type {{lang: string, line: number, marker: string, code: string}[]} */
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    let j = i + 1;
    while (j < lines.length && lines[j] !== "```") j++;
    const prev = lines.slice(0, i).reverse().find((l) => l.trim() !== "") ?? "";
    const marker = /^<!--.*-->$/.test(prev.trim()) ? prev.trim() : "";
    out.push({ lang: open[1], line: i + 1, marker, code: lines.slice(i + 1, j).join("\n") });
    i = j;
  }
  return out;
}

/** runnable returns the js programs of a file: blocks joined where marked to continue. */
function runnable(/** @type {string} */ file) {
  /** @type {{line: number, code: string}[]} */
  const progs = [];
  for (const b of blocks(file)) {
    if (b.lang !== "js") continue;
    if (b.marker.startsWith("<!-- not run:")) continue;
    if (b.marker.startsWith("<!-- file:") || b.marker.startsWith("<!-- test file:")) {
      assert.match(b.marker, /^<!-- (test )?file: [\w.-]+ -->$/, `${file}:${b.line}: a file block names a file of the app's directory`);
      continue;
    }
    if (b.marker === "<!-- continues -->") {
      assert.ok(progs.length, `${file}:${b.line}: nothing to continue`);
      progs[progs.length - 1].code += "\n" + b.code;
      continue;
    }
    assert.equal(b.marker, "", `${file}:${b.line}: unknown marker ${b.marker}`);
    progs.push({ line: b.line, code: b.code });
  }
  return progs;
}

/** PageWindow is the page's window as far as the extension channel needs it. */
class PageWindow extends EventTarget {
  location = { origin: "https://app.example" };
  /** @param {any} data @param {string} targetOrigin @param {any[]} [ports] */
  postMessage(data, targetOrigin, ports = []) {
    if (targetOrigin !== "*" && targetOrigin !== this.location.origin) return;
    const ev = new Event("message");
    Object.assign(ev, { data: structuredClone(data), origin: this.location.origin, source: this, ports });
    setTimeout(() => this.dispatchEvent(ev), 0);
  }
}
/** @type {any} */ (globalThis).window = new PageWindow();

/**
 * files returns the blocks of a Markdown file marked "<!-- file: NAME -->"
 * (or, with kind "test file", "<!-- test file: NAME -->"), by NAME.
 * @param {string} file @param {"file" | "test file"} [kind]
 */
function files(file, kind = "file") {
  /** @type {Record<string, string>} */
  const out = {};
  for (const b of blocks(file)) {
    const m = new RegExp(`^<!-- ${kind}: ([\\w.-]+) -->$`).exec(b.marker); // a name in the app's directory, no path
    if (m) out[m[1]] = b.code + "\n";
  }
  return out;
}

/**
 * app lays out a directory like an app that installed the packed package
 * (its sources and pinhole.wasm copied, as npm does from the tarball, so
 * that the package finds its own module), with the file's own files.
 * @param {string} file the Markdown file whose blocks run there
 */
function app(file) {
  const dir = mkdtempSync(join(tmpdir(), "pinhole-docs-"));
  const pkg = join(dir, "node_modules", "@pinholectx", "pinhole");
  mkdirSync(pkg, { recursive: true });
  cpSync(join(JS, "src"), join(pkg, "src"), { recursive: true });
  copyFileSync(join(JS, "package.json"), join(pkg, "package.json"));
  copyFileSync(join(ROOT, "build", "pinhole.wasm"), join(pkg, "pinhole.wasm"));
  symlinkSync(join(JS, "node_modules", "zustand"), join(dir, "node_modules", "zustand"), "dir");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "docs-app", type: "module", private: true }));
  copyFileSync(join(ROOT, "testdata", "orders", "manifest.json"), join(dir, "pinhole.manifest.json"));
  copyFileSync(join(ROOT, "testdata", "orders", "state.json"), join(dir, "state.json"));
  copyFileSync(join(JS, "test", "docs", "store.js"), join(dir, "store.js"));
  for (const [name, code] of Object.entries(files(file))) writeFileSync(join(dir, name), code);
  return dir;
}

/**
 * CHECKS: what a block must have computed, by file and the names it defines.
 * @type {Record<string, {names: string[], check: (v: any) => void | Promise<void>}[]>}
 */
const CHECKS = {
  "README.md": [
    {
      names: ["pinhole", "context", "shipped", "refused", "webmcp"],
      async check({ context, shipped, refused, webmcp }) {
        assert.equal(context.context.recordsTotal, 48);
        assert.equal(shipped.ok, true, JSON.stringify(shipped));
        assert.equal(shipped.snapshot, "s2");
        assert.deepEqual(shipped.after.records.changed.map((/** @type {any} */ r) => [r.id, r.fields.status]), [["SO-1001", "Shipped"]]);
        assert.equal(refused.error.code, "capability_unavailable");
        assert.equal(refused.error.param, "capability");
        assert.equal(refused.error.message, "Only orders that are ready to ship can be shipped");
        assert.equal(webmcp.exposed, false, "Node has no modelContext");
        // exposeToExtension ran after it: an extension's content script connects.
        const client = await connectFromContentScript({ window: /** @type {any} */ (globalThis.window) });
        const d = /** @type {any} */ (await client.describe({ limit: 1 }));
        assert.equal(d.context.recordsTotal, 48);
        client.close();
      },
    },
  ],
  "js/README.md": [
    {
      names: ["pinhole", "result", "webmcp", "auditLog"],
      async check({ result, webmcp, auditLog }) {
        assert.equal(result.ok, true, JSON.stringify(result));
        assert.equal(result.snapshot, "s2");
        assert.deepEqual(result.after.records.changed.map((/** @type {any} */ r) => r.id), ["SO-1001"]);
        assert.ok(auditLog.some((/** @type {any} */ e) => e.op === "prepare"), "onAudit saw the prepare");
        assert.equal(webmcp.exposed, false, "Node has no modelContext");
        assert.match(webmcp.reason, /modelContext/);
      },
    },
  ],
};

for (const file of Object.keys(CHECKS)) {
  const progs = runnable(file);
  test(`${file}: every runnable js block has its check`, () => {
    assert.equal(progs.length, CHECKS[file].length, `${file} has ${progs.length} runnable js blocks, CHECKS ${CHECKS[file].length}`);
  });
  progs.forEach((prog, i) => {
    const want = CHECKS[file][i];
    test(`${file}:${prog.line} runs`, async () => {
      const dir = app(file);
      try {
        const src = join(dir, `block-${prog.line}.mjs`);
        const names = want?.names ?? [];
        writeFileSync(src, prog.code + (names.length ? `\nexport { ${names.join(", ")} };\n` : "\n"));
        const mod = await import(pathToFileURL(src).href);
        await want?.check(mod);
        for (const v of Object.values(mod)) if (v && typeof v.dispose === "function") v.dispose();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

for (const file of Object.keys(CHECKS)) {
  for (const [name, code] of Object.entries(files(file, "test file"))) {
    test(`${file}: the test file ${name} passes under node --test`, () => {
      const dir = app(file);
      try {
        writeFileSync(join(dir, name), code);
        // A test run of its own: not a child of this one (NODE_TEST_CONTEXT), reporting TAP.
        const env = { ...process.env };
        delete env.NODE_TEST_CONTEXT;
        const run = spawnSync(process.execPath, ["--test", "--test-reporter=tap", name], { cwd: dir, env, encoding: "utf8", timeout: 120000 });
        assert.equal(run.status, 0, `${name} failed:\n${run.stdout}\n${run.stderr}`);
        assert.match(run.stdout, /^# pass [1-9]/m, "it ran no test");
        assert.match(run.stdout, /^# fail 0$/m);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
}

test("a block marked not run says why", () => {
  for (const file of ["README.md", "js/README.md"]) {
    for (const b of blocks(file)) {
      if (b.marker.startsWith("<!-- not run")) assert.match(b.marker, /^<!-- not run: \S.*-->$/, `${file}:${b.line}`);
    }
  }
});
