// webpack 5 finds the bridge's new URL("../pinhole.wasm", import.meta.url)
// and emits the module as an asset (dist/<hash>.wasm) with no rule or
// loader. The one setting Pinhole needs: the ~3.5 MB module is fetched on
// demand, compiled streaming, and is not a script, so leave it out of the
// size hints (they are about scripts parsed on the main thread).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import webpack from "webpack";

/** Emits src/index.html next to the bundle (no plugin package needed). */
class EmitHtml {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap("EmitHtml", (compilation) => {
      compilation.hooks.processAssets.tap({ name: "EmitHtml", stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        compilation.emitAsset("index.html", new webpack.sources.RawSource(readFileSync(new URL("./src/index.html", import.meta.url))));
      });
    });
  }
}

export default {
  entry: "./src/index.js",
  output: { path: fileURLToPath(new URL("./dist", import.meta.url)), filename: "app.js", clean: true },
  performance: { assetFilter: (name) => !name.endsWith(".wasm") },
  plugins: [new EmitHtml()],
};
