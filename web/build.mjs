// Builds the demo into web/dist with esbuild: the orders console (app.js),
// the vector replay page, the cross-origin probe page and the example
// browser extension (dist/extension, loadable unpacked). The bridge is taken
// from the repository's js/ package through its package.json "exports", so
// the demo always runs the bridge sources next to it.
import * as esbuild from "esbuild";
import { cpSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const jsDir = resolve(here, "../js");
const out = join(here, "dist");

/** resolveExport maps "@pinholectx/pinhole[/sub]" to a file of js/ via its exports map. */
function resolveExport(spec) {
  const pkg = JSON.parse(readFileSync(join(jsDir, "package.json"), "utf8"));
  const sub = "." + spec.slice("@pinholectx/pinhole".length);
  let target = pkg.exports?.[sub] ?? (sub === "." ? pkg.module ?? pkg.main ?? "./src/index.js" : undefined);
  if (target && typeof target === "object") target = target.browser ?? target.import ?? target.default;
  if (typeof target !== "string") throw new Error(`js/package.json exports no "${sub}"`);
  return resolve(jsDir, target);
}

/** The esbuild plugin that points the bridge package at js/. */
const bridge = {
  name: "pinhole-bridge",
  setup(b) {
    b.onResolve({ filter: /^@pinholectx\/pinhole(\/.*)?$/ }, (args) => ({ path: resolveExport(args.path) }));
  },
};

/** build bundles every entry point; watch is not needed for the demo. */
export async function build({ quiet = false } = {}) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, "extension"), { recursive: true });
  const common = {
    bundle: true, format: "esm", target: "chrome120", sourcemap: true, minify: false,
    plugins: [bridge], logLevel: quiet ? "warning" : "info", legalComments: "none",
    // No node:* externals: the bridge imports Node's fs only at run time in
    // Node, through a specifier no bundler sees, so none reaches a bundle.
    platform: "browser",
    // testdata/orders/generate.mjs checks process.argv to run as a script.
    define: { "process.argv": "[]" },
  };
  await esbuild.build({
    ...common,
    // worker: the bridge hosts the module in it, found next to app.js.
    entryPoints: { app: "src/main.js", vectors: "src/vectors.js", probe: "src/probe.js", worker: "@pinholectx/pinhole/worker.js" },
    outdir: out, absWorkingDir: here,
  });
  await esbuild.build({
    ...common, format: "iife",
    entryPoints: { content: "extension/content.js", popup: "extension/popup.js", background: "extension/background.js" },
    outdir: join(out, "extension"), absWorkingDir: here,
  });
  for (const f of ["index.html", "vectors.html", "probe.html", "style.css"]) cpSync(join(here, "src", f), join(out, f));
  for (const f of ["manifest.json", "popup.html"]) cpSync(join(here, "extension", f), join(out, "extension", f));
}

if (import.meta.url === `file://${process.argv[1]}`) await build();
