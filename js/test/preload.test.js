// Early compilation: compileModule shares one compilation per location, so
// preloadPinhole started before the store exists is the compilation
// createPinhole then uses; a location that failed is tried again.
import test from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compileModule, createPinhole, preloadPinhole } from "../src/index.js";
import { KEY, MANIFEST, WASM, ordersState, plainStore } from "./helpers.js";

test("one compilation per location, shared by preloadPinhole and createPinhole", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pinhole-preload-"));
  try {
    const path = join(dir, "pinhole.wasm");
    copyFileSync(WASM, path);
    const early = preloadPinhole(path);
    const again = compileModule(path);
    assert.equal(await early, await again, "the same location compiles once");
    const p = /** @type {any} */ (await createPinhole({ wasm: path, manifest: MANIFEST, store: plainStore(ordersState()), key: KEY }));
    try {
      assert.ok(p.link.host.module === await early, "createPinhole uses the preloaded module");
      assert.match(await p.describeText(), /"snapshot":"s1"/);
    } finally {
      p.dispose();
    }
    const byURL = await compileModule(pathToFileURL(path));
    assert.ok(byURL instanceof WebAssembly.Module);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a location that failed to compile is tried again", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pinhole-preload-"));
  try {
    const path = join(dir, "later.wasm");
    await assert.rejects(preloadPinhole(path), /ENOENT/);
    copyFileSync(WASM, path);
    assert.ok((await preloadPinhole(path)) instanceof WebAssembly.Module);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("something that is not WebAssembly is refused with what it is, not a magic-word error", async () => {
  const html = "<!doctype html><html><body>app</body></html>";
  // A dev server's fallback page for a wasm URL it does not have.
  const page = new Response(html, { headers: { "content-type": "text/html" } });
  await assert.rejects(compileModule(page), (/** @type {any} */ e) => {
    assert.match(e.message, /is not WebAssembly: it starts "<!doctype html><"/);
    assert.match(e.message, /content-type text\/html/);
    assert.match(e.message, /If you pass the wasm option, check where it points; without it the package's own pinhole\.wasm is used/);
    return true;
  });
  await assert.rejects(compileModule(new TextEncoder().encode(html)), /the wasm bytes given is not WebAssembly/);
  // A response's URL is named without its query: a signed URL's token stays out.
  const signed = new Response(html, { headers: { "content-type": "text/html" } });
  Object.defineProperty(signed, "url", { value: "https://cdn.example/pinhole.wasm?X-Amz-Signature=abc123secret#frag" });
  await assert.rejects(compileModule(signed), (/** @type {any} */ e) => {
    assert.match(e.message, /https:\/\/cdn\.example\/pinhole\.wasm \(content-type text\/html\) is not WebAssembly/);
    assert.doesNotMatch(e.message, /abc123secret|frag/);
    return true;
  });
  await assert.rejects(compileModule(new Uint8Array(0)), /is not WebAssembly: it starts ""/);
  // A page with a line break early: shown escaped, as JSON, not as "?"; bytes
  // outside ASCII as "?".
  await assert.rejects(compileModule(new TextEncoder().encode("<!doctype\n<p>é")),
    /it starts "<!doctype\\n<p>\?" instead of/);
  const dir = mkdtempSync(join(tmpdir(), "pinhole-preload-"));
  try {
    const path = join(dir, "index.html");
    writeFileSync(path, html);
    await assert.rejects(compileModule(path), (/** @type {any} */ e) => e.message.includes(`${path} is not WebAssembly`));
    // The module itself still compiles, from bytes and from a Response.
    const bytes = readFileSync(WASM);
    assert.ok(await compileModule(bytes) instanceof WebAssembly.Module);
    assert.ok(await compileModule(new Response(bytes)) instanceof WebAssembly.Module);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
