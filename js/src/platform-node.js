// Node side of the loader: a string or file: URL names a file on disk.
import { readFile } from "node:fs/promises";

/**
 * readLocal returns the bytes of a local wasm file, or undefined when the
 * location is a remote URL that fetch should handle.
 * @param {string | URL} where
 * @returns {Promise<Uint8Array | undefined>}
 */
export async function readLocal(where) {
  const s = String(where);
  if (/^https?:/i.test(s)) return undefined;
  return readFile(where instanceof URL || s.startsWith("file:") ? new URL(s) : s);
}
