// Pinia stores as a pinhole store. Pinia state is reactive and mutated in
// place, so the store is marked mutable: the bridge compares slices by
// value. Pass one store (its $state is the root) or an object of stores
// ({orders: useOrders(), session: useSession()}: each store's $state under
// its key). No Vue import is needed: the adapter uses $state and
// $subscribe (flush "sync", detached so it outlives components).

/**
 * @typedef {{$state: any, $subscribe(cb: () => void, options?: {flush?: "sync" | "pre" | "post", detached?: boolean}): () => void}} PiniaStore
 */

/** @param {any} s @returns {s is PiniaStore} */
const isStore = (s) => s && typeof s.$subscribe === "function" && "$state" in s;

/**
 * fromPinia adapts one Pinia store or an object of them.
 * @param {PiniaStore | Record<string, PiniaStore>} stores
 * @returns {import('../types.js').StoreLike<any>}
 */
export function fromPinia(stores) {
  if (isStore(stores)) {
    const s = stores;
    return {
      mutable: true,
      getState: () => s.$state,
      subscribe: (listener) => s.$subscribe(() => listener(), { flush: "sync", detached: true }),
    };
  }
  if (!stores || typeof stores !== "object") throw new TypeError("fromPinia: expected a Pinia store or an object of stores");
  const entries = Object.entries(stores);
  for (const [k, s] of entries) {
    if (!isStore(s)) throw new TypeError(`fromPinia: ${JSON.stringify(k)} is not a Pinia store`);
  }
  return {
    mutable: true,
    getState() {
      /** @type {Record<string, any>} */
      const root = {};
      for (const [k, s] of entries) root[k] = s.$state;
      return root;
    },
    subscribe(listener) {
      const offs = entries.map(([, s]) => s.$subscribe(() => listener(), { flush: "sync", detached: true }));
      return () => offs.forEach((off) => off());
    },
  };
}
