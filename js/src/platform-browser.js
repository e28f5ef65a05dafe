// Browser side of the loader: every location is a URL for fetch.

/**
 * readLocal has nothing to read in a browser: fetch handles every URL.
 * @param {string | URL} _where
 * @returns {Promise<Uint8Array | undefined>}
 */
export async function readLocal(_where) {
  return undefined;
}
