// readBody and cancelBody (body.mjs), which read a request body for the Go
// side: the bytes asked for, however the stream cuts them into chunks, in
// order, nothing lost or repeated, and the end said once there is no more.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cancelBody, readBody } from "./body.mjs";

/** stream delivers body in chunks of the given sizes (the last one repeated). */
function stream(/** @type {Uint8Array} */ body, /** @type {number[]} */ sizes) {
  let at = 0;
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= body.length) return c.close();
      const k = sizes[Math.min(i++, sizes.length - 1)];
      c.enqueue(body.slice(at, at + k));
      at += k;
    },
  });
}

const body = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) % 251);

test("reads of any size, over chunks of any size, give the body in order and say where it ends", async () => {
  for (const sizes of [[1000], [1], [7], [3, 0, 500], [999, 1], [64, 1, 300]]) {
    for (const n of [1, 3, 64, 999, 1000, 1001, 4096]) {
      const s = stream(body, sizes);
      const got = [];
      let done = false;
      let reads = 0;
      while (!done) {
        const r = await readBody(s, n);
        assert.ok(r.bytes.byteLength <= n, `a read of ${n} gave ${r.bytes.byteLength}`);
        if (!r.done) assert.equal(r.bytes.byteLength, n, `chunks ${sizes}, reads of ${n}: a short read before the end`);
        got.push(...r.bytes);
        done = r.done;
        assert.ok(++reads <= 1001, "no end");
      }
      assert.deepEqual(Uint8Array.from(got), body, `chunks ${sizes}, reads of ${n}`);
    }
  }
});

test("a read of the declared length and one more byte takes the whole body in one call", async () => {
  const r = await readBody(stream(body, [100]), body.length + 1);
  assert.equal(r.done, true);
  assert.deepEqual(r.bytes, body);
});

test("an empty body ends at once, and a read after the end gives nothing", async () => {
  const s = stream(new Uint8Array(0), [1]);
  assert.deepEqual(await readBody(s, 10), { bytes: new Uint8Array(0), done: true });
  assert.deepEqual(await readBody(s, 10), { bytes: new Uint8Array(0), done: true });
});

test("cancelBody cancels the stream, read or not", async () => {
  for (const readFirst of [false, true]) {
    let cancelled = false;
    const s = new ReadableStream({
      pull(c) { c.enqueue(new Uint8Array(8)); },
      cancel() { cancelled = true; },
    });
    if (readFirst) await readBody(s, 4);
    cancelBody(s);
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(cancelled, true, readFirst ? "after a read" : "unread");
  }
});

test("no chunk's buffer is kept: bytes and the rest of a chunk are copies", async () => {
  // Chunks as workerd hands small network reads: views on a larger buffer.
  const buffers = [];
  let i = 0;
  const s = new ReadableStream({
    pull(c) {
      if (i >= 3) return c.close();
      const buf = new ArrayBuffer(4096);
      buffers.push(buf);
      const view = new Uint8Array(buf, 100, 3);
      view.set([i * 3 + 1, i * 3 + 2, i * 3 + 3]);
      i++;
      c.enqueue(view);
    },
  });
  const first = await readBody(s, 4);
  assert.deepEqual([...first.bytes], [1, 2, 3, 4]);
  assert.ok(buffers.every((b) => first.bytes.buffer !== b), "the bytes are a view on a chunk's buffer");
  // The runtime reuses the buffers of chunks it has handed over (the first
  // two; the stream may have queued the third already).
  for (const b of buffers.slice(0, 2)) new Uint8Array(b).fill(0);
  const second = await readBody(s, 100);
  assert.deepEqual([...second.bytes], [5, 6, 7, 8, 9]);
  assert.equal(second.done, true);
});
