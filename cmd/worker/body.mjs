// Request bodies read for the Go side (main_js.go, jsBody) in one call per
// read: syumai/workers' own reader makes a round trip through a promise,
// two Go callbacks and a goroutine switch for every chunk of the stream.
// entry.mjs hands these two functions to the Go instance; body.test.mjs
// tests them on streams cut into chunks of every size.

/**
 * Request bodies the Go side is reading (readBody): the stream's reader,
 * a copy of the bytes of a chunk read past what Go asked for, and whether
 * the stream has ended.
 * @type {WeakMap<ReadableStream<Uint8Array>, {reader: ReadableStreamDefaultReader<Uint8Array>, rest: Uint8Array | null, ended: boolean}>}
 */
const reading = new WeakMap();

/**
 * Reads up to n bytes of a request body for the Go side (main_js.go,
 * jsBody) in one call, however many chunks the stream delivers them in.
 * done says that the body has no more bytes after these.
 * @param {ReadableStream<Uint8Array>} stream
 * @param {number} n
 * @returns {Promise<{bytes: Uint8Array, done: boolean}>}
 */
export async function readBody(stream, n) {
  let r = reading.get(stream);
  if (!r) reading.set(stream, (r = { reader: stream.getReader(), rest: null, ended: false }));
  // The bytes are copied out of each chunk as it comes: a chunk may be a
  // view on a larger buffer of the runtime's (workerd hands each network
  // read as a view on a 4 KiB buffer), and holding views until the body is
  // complete would hold those buffers, thousands of times a slow upload's
  // bytes. n is bounded by the Go buffer being filled.
  const bytes = new Uint8Array(n);
  let got = 0;
  /** @param {Uint8Array} chunk */
  const take = (chunk) => {
    const k = Math.min(chunk.byteLength, n - got);
    bytes.set(chunk.subarray(0, k), got);
    got += k;
    r.rest = k < chunk.byteLength ? chunk.slice(k) : null;
  };
  if (r.rest) take(r.rest);
  while (got < n && !r.ended) {
    const { value, done } = await r.reader.read();
    if (done) r.ended = true;
    else take(value);
  }
  return { bytes: bytes.subarray(0, got), done: r.ended && !r.rest };
}

/**
 * Cancels what is left of a request body the Go side stops reading.
 * @param {ReadableStream<Uint8Array>} stream
 */
export function cancelBody(stream) {
  const r = reading.get(stream);
  (r ? r.reader.cancel() : stream.cancel()).catch(() => {});
}
