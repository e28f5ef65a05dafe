// Any store with the shape React's useSyncExternalStore takes
// ({getSnapshot, subscribe}) as a pinhole store. The contract of that shape
// is that getSnapshot returns the same reference until the store changes,
// so the bridge compares by reference. No React import is needed.

/**
 * fromExternalStore adapts a {getSnapshot, subscribe} pair.
 * @template S
 * @param {{getSnapshot(): S, subscribe(onStoreChange: () => void): () => void}} source
 * @returns {import('../types.js').StoreLike<S>}
 */
export function fromExternalStore(source) {
  if (!source || typeof source.getSnapshot !== "function" || typeof source.subscribe !== "function") {
    throw new TypeError("fromExternalStore: expected {getSnapshot, subscribe}");
  }
  return {
    getState: () => source.getSnapshot(),
    subscribe: (listener) => source.subscribe(listener),
  };
}
