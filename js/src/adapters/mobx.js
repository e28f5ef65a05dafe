// MobX observable state as a pinhole store. MobX mutates in place, so the
// store is marked mutable (the bridge compares by value). The subscription
// is a MobX reaction over exactly the declared slice: the bridge passes a
// track function that reads the declared paths, so MobX re-runs it only
// when one of those changes, and undeclared data is never observed.
import { reaction } from "mobx";

/**
 * fromMobx adapts an observable root (an observable object, or a class
 * instance made observable with makeAutoObservable).
 * @param {object} root
 * @returns {import('../types.js').StoreLike<any>}
 */
export function fromMobx(root) {
  if (!root || typeof root !== "object") throw new TypeError("fromMobx: expected an observable object");
  return {
    mutable: true,
    getState: () => root,
    subscribe(listener, track) {
      if (typeof track !== "function") throw new TypeError("fromMobx: the bridge passes a track function");
      return reaction(track, () => listener());
    },
  };
}
