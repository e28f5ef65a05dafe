// Zustand stores (vanilla createStore, or the hook create returns, which
// carries getState and subscribe) as a pinhole store. Zustand state is
// replaced, not mutated, so the bridge compares by reference.

/**
 * fromZustand adapts a Zustand store or hook.
 * @template S
 * @param {{getState(): S, subscribe(listener: (state: S, prev: S) => void): () => void}} store
 * @returns {import('../types.js').StoreLike<S>}
 */
export function fromZustand(store) {
  if (!store || typeof store.getState !== "function" || typeof store.subscribe !== "function") {
    throw new TypeError("fromZustand: expected a Zustand store or hook (getState, subscribe)");
  }
  return {
    getState: () => store.getState(),
    subscribe: (listener) => store.subscribe(() => listener()),
  };
}
