// React: a store shaped for useSyncExternalStore as a pinhole store, and the
// bridge's lifetime tied to a component (usePinhole, PinholeProvider).
//
// fromExternalStore needs nothing from React: the contract of the
// {getSnapshot, subscribe} shape is that getSnapshot returns the same
// reference until the store changes, so the bridge compares by reference.
//
// usePinhole creates one bridge when its component mounts and disposes it
// when the component unmounts. React's StrictMode unmounts and mounts every
// effect once more in development: the release is deferred by one task and
// cancelled by the immediate re-mount, so that cycle keeps the same bridge
// (one module load, no second instance left behind). A bridge that arrives
// after its component unmounted is disposed at once.
import { createContext, createElement, useContext, useEffect, useRef, useState } from "react";
import { createPinhole } from "../index.js";
import { capabilityNames, handlerNames, handlerOf } from "../execute.js";

/** @typedef {import('../types.js').PinholeOptions} PinholeOptions */
/** @typedef {import('../types.js').PinholeState} PinholeState */
/** @typedef {import('../types.js').Pinhole} Pinhole */

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

/** The option holding functions the hook forwards to the latest render. */
const CALLBACKS = /** @type {const} */ (["onAudit", "onActionError"]);

/**
 * usePinhole starts a bridge for the lifetime of the calling component and
 * answers {pinhole, error}: both null while the module loads, then the
 * bridge, or what createPinhole threw. The options are read once, at the
 * first mount (remount with another React `key` for a new bridge); the
 * functions among them (each action handler present then, `onAudit`,
 * `onActionError`) always call those of the latest render.
 * @param {PinholeOptions} options
 * @returns {PinholeState}
 */
export function usePinhole(options) {
  const latest = useRef(options);
  /** @type {import('react').MutableRefObject<Holder | null>} */
  const holder = useRef(null);
  const [state, setState] = useState(/** @type {PinholeState} */ ({ pinhole: null, error: null }));

  useEffect(() => {
    latest.current = options;
  });

  useEffect(() => {
    let h = holder.current;
    if (h && h.release !== undefined) {
      clearTimeout(h.release); // StrictMode's re-mount: keep the bridge
      h.release = undefined;
    } else if (!h) {
      const made = /** @type {Holder} */ ({ closed: false, pinhole: null, release: undefined });
      h = holder.current = made;
      createPinhole(forwarding(latest)).then((pinhole) => {
        if (made.closed) return pinhole.dispose();
        made.pinhole = pinhole;
        setState({ pinhole, error: null });
      }, (error) => {
        if (!made.closed) setState({ pinhole: null, error });
      });
    }
    const mine = h;
    return () => {
      mine.release = setTimeout(() => {
        mine.closed = true;
        mine.release = undefined;
        if (holder.current === mine) holder.current = null;
        mine.pinhole?.dispose();
      }, 0);
    };
  }, []);

  return state;
}

/**
 * @typedef {{closed: boolean, pinhole: Pinhole | null, release: ReturnType<typeof setTimeout> | undefined}} Holder
 */

/**
 * forwarding copies the first options, with each function replaced by one
 * that calls the latest render's.
 * @param {{current: PinholeOptions}} latest
 * @returns {PinholeOptions}
 */
function forwarding(latest) {
  const first = latest.current;
  /** @type {PinholeOptions} */
  const o = { ...first };
  if (first.actions) {
    /** @type {import('../types.js').Actions} */
    const actions = {};
    // A class's methods, and the manifest's capabilities a Proxy answers.
    const names = new Set(handlerNames(first.actions));
    for (const n of capabilityNames(first.manifest)) if (handlerOf(first.actions, n)) names.add(n);
    for (const name of names) {
      actions[name] = (req) => {
        const current = latest.current.actions;
        const handler = handlerOf(current, name);
        if (!handler) throw new Error(`no handler for ${name} in the latest render`);
        return handler.call(current, req);
      };
    }
    o.actions = actions;
  }
  for (const k of CALLBACKS) {
    if (typeof first[k] === "function") {
      o[k] = /** @type {any} */ ((/** @type {any[]} */ ...args) => /** @type {any} */ (latest.current[k])?.(...args));
    }
  }
  return o;
}

/** The bridge of the nearest PinholeProvider. */
const PinholeContext = createContext(/** @type {PinholeState | null} */ (null));

/**
 * PinholeProvider starts one bridge (usePinhole) and gives it to every
 * descendant that calls useProvidedPinhole.
 * @param {{options: PinholeOptions, children?: import('react').ReactNode}} props
 * @returns {import('react').ReactElement}
 */
export function PinholeProvider({ options, children }) {
  const state = usePinhole(options);
  return createElement(PinholeContext.Provider, { value: state }, children);
}

/**
 * useProvidedPinhole answers the {pinhole, error} of the nearest
 * PinholeProvider; it throws outside one.
 * @returns {PinholeState}
 */
export function useProvidedPinhole() {
  const state = useContext(PinholeContext);
  if (!state) throw new Error("useProvidedPinhole: no <PinholeProvider> above this component");
  return state;
}
