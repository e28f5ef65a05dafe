// Bundles src/app.js into one classic script (format "iife": no import.meta)
// and puts pinhole.wasm and the worker script (pinhole-worker.js, a bundle
// of @pinholectx/pinhole/worker.js) beside it: the bridge, finding no
// import.meta.url, starts the worker and fetches the module next to the
// script that loaded it (document.currentScript). dist/ is the whole site.
import * as esbuild from "esbuild";
import { cpSync, rmSync } from "node:fs";
import { createRequire } from "node:module";

rmSync("dist", { recursive: true, force: true });
await esbuild.build({
  entryPoints: ["src/app.js"], bundle: true, format: "iife", platform: "browser", target: "es2022",
  outfile: "dist/app.js", logLevel: "info",
});
// The worker that hosts the module, found beside the script as well.
await esbuild.build({
  entryPoints: ["@pinholectx/pinhole/worker.js"], bundle: true, format: "iife", platform: "browser", target: "es2022",
  outfile: "dist/pinhole-worker.js", logLevel: "info",
});
const pkg = createRequire(import.meta.url).resolve("@pinholectx/pinhole/pinhole.wasm");
cpSync(pkg, "dist/pinhole.wasm");
cpSync("src/index.html", "dist/index.html");
console.log("  dist/pinhole.wasm (copied from the package)");
