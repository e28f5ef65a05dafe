// Redux and Redux Toolkit stores as a pinhole store. A Redux store already
// has getState() and subscribe(); this adapter checks the shape and makes
// the intent explicit: Redux state is immutable, so the bridge compares
// declared slices by reference.

/**
 * fromRedux adapts a Redux (or Redux Toolkit configureStore) store.
 * @template S
 * @param {{getState(): S, subscribe(listener: () => void): () => void}} store
 * @returns {import('../types.js').StoreLike<S>}
 */
export function fromRedux(store) {
  if (!store || typeof store.getState !== "function" || typeof store.subscribe !== "function") {
    throw new TypeError("fromRedux: expected a Redux store (getState, subscribe)");
  }
  return {
    getState: () => store.getState(),
    subscribe: (listener) => store.subscribe(listener),
  };
}
