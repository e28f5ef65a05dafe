// The demo server's caching headers: every file carries an ETag of its
// bytes and `no-cache`, a matching If-None-Match is answered 304 without a
// body, and changed bytes get a new ETag.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { startServer } from "../serve.mjs";

test("pinhole.wasm: application/wasm, ETag, 304 when unchanged, new ETag when changed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pinhole-serve-"));
  const wasm = join(dir, "pinhole.wasm");
  writeFileSync(wasm, Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
  const s = await startServer({ wasm, dist: dir, vectors: dir });
  try {
    const url = s.url + "pinhole.wasm";
    const first = await fetch(url);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get("content-type"), "application/wasm");
    assert.equal(first.headers.get("cache-control"), "no-cache");
    const etag = first.headers.get("etag");
    assert.match(etag ?? "", /^"[A-Za-z0-9_-]{27}"$/);
    assert.equal((await first.arrayBuffer()).byteLength, 8);

    for (const [name, inm, status] of [["same", etag, 304], ["weak", `W/${etag}`, 304], ["list", `"x", ${etag}`, 304], ["other", '"x"', 200]]) {
      const r = await fetch(url, { headers: { "if-none-match": /** @type {string} */ (inm) } });
      assert.equal(r.status, status, name);
      assert.equal((await r.arrayBuffer()).byteLength, status === 304 ? 0 : 8, name);
    }

    writeFileSync(wasm, Buffer.from([0, 97, 115, 109, 1, 0, 0, 0, 0]));
    const changed = await fetch(url, { headers: { "if-none-match": /** @type {string} */ (etag) } });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get("etag"), etag);
    assert.equal((await changed.arrayBuffer()).byteLength, 9);

    const missing = await fetch(s.url + "missing.js");
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get("etag"), null);
  } finally {
    await s.close();
  }
});
