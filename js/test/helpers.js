// Shared fixtures for the bridge's tests: the module built by `make wasm`,
// the orders example, a minimal immutable store, and a request recorder.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** build/pinhole.wasm of this checkout. */
export const WASM = fileURLToPath(new URL("../../build/pinhole.wasm", import.meta.url));
/** The orders example's manifest. */
export const MANIFEST = JSON.parse(readFileSync(new URL("../../testdata/orders/manifest.json", import.meta.url), "utf8"));
/**
 * noteManifest is the orders manifest plus orders.note, a page-scope
 * capability whose input schema admits any property.
 */
export function noteManifest() {
  const manifest = structuredClone(MANIFEST);
  manifest.capabilities.push({
    name: "orders.note", description: "Add a note to the list", scope: "page", region: "orders",
    input: { type: "object", properties: { text: { type: "string" } } },
  });
  return manifest;
}

/** A fixed session key, so answers are comparable across instances. */
export const KEY = "test-key-0123456789abcdef";

/** A handler that does nothing for every capability of MANIFEST: a bridge that offers them all. */
export const NO_OP_ACTIONS = Object.freeze(Object.fromEntries(MANIFEST.capabilities.map((/** @type {{name: string}} */ c) => [c.name, () => {}])));

/** @returns {any} a fresh copy of the orders example state (48 orders). */
export function ordersState() {
  return JSON.parse(readFileSync(new URL("../../testdata/orders/state.json", import.meta.url), "utf8"));
}

/**
 * plainStore is the smallest immutable store: setState replaces the root.
 * @param {any} initial
 */
export function plainStore(initial) {
  let state = initial;
  const listeners = new Set();
  return {
    getState: () => state,
    /** @param {() => void} l */
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    /** @param {(s: any) => any} f */
    setState(f) {
      state = f(state);
      for (const l of [...listeners]) l();
    },
    listeners,
  };
}

/** recorder collects every request sent into the module. */
export function recorder() {
  /** @type {string[]} */
  const sent = [];
  /** @type {string[]} */
  const answers = [];
  return {
    sent,
    answers,
    /** @param {"in" | "out"} dir @param {string} text */
    trace(dir, text) {
      (dir === "in" ? sent : answers).push(text);
    },
    /** The parsed requests with the given op. */
    ops(/** @type {string} */ op) {
      return sent.map((t) => JSON.parse(t)).filter((r) => r.op === op);
    },
  };
}

/** Waits for queued microtasks and one macrotask. */
export const settle = () => new Promise((r) => setTimeout(r, 0));

/**
 * shipOrder returns state with order i's status replaced (immutably).
 * @param {any} s @param {number} i @param {string} status
 */
export function setStatus(s, i, status) {
  const items = s.orders.items.slice();
  items[i] = { ...items[i], status };
  return { ...s, orders: { ...s.orders, items } };
}
