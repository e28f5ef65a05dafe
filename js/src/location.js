// Where pinhole.wasm is when createPinhole gets no `wasm` option: the copy
// at the root of the package, next to src/.
//
// `new URL("../pinhole.wasm", import.meta.url)` is the pattern bundlers
// understand: Vite, Rollup and webpack 5 emit the file as an asset and
// rewrite the URL to it; Node reads the file: URL from disk. A classic-script
// build (an IIFE bundle, a script tag) has no import.meta: the expression sits
// in a try block, so such a build is silent about it (esbuild only warns
// about import.meta outside try), and the fallback is the file next to the
// script that loaded the bundle (document.currentScript, which is only set
// while a classic script first runs, so it is read when this module loads).
// Where neither exists, the app must pass `wasm`.

const script = scriptURL();

/**
 * defaultWasm returns the URL of the packaged pinhole.wasm, or undefined
 * when this build cannot know it.
 * @returns {URL | undefined}
 */
export function defaultWasm() {
  try {
    return new URL("../pinhole.wasm", import.meta.url);
  } catch {
    // No import.meta.url: a classic-script build.
  }
  return besideScript("pinhole.wasm");
}

/**
 * besideScript returns the URL of a file next to the classic script that
 * loaded this bundle, or undefined when there is none (ESM, workers, Node).
 * @param {string} name
 * @returns {URL | undefined}
 */
export function besideScript(name) {
  return script ? new URL(name, script) : undefined;
}

/** The src of the classic script running now, or "" (ESM, workers, Node). */
function scriptURL() {
  try {
    const s = globalThis.document?.currentScript;
    return s && "src" in s && typeof s.src === "string" ? s.src : "";
  } catch {
    return "";
  }
}
