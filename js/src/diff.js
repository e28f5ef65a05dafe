// Incremental sync: the JSON Patch (RFC 6902) that turns one declared slice
// into the next. Slices share unchanged subtrees by reference (see
// reads.js), so the walk skips them with one comparison each.
import { escapeToken, isCut } from "./reads.js";

/**
 * @typedef {{op: "add" | "remove" | "replace", path: string, value?: any}} PatchOp
 */

/** Thrown inside diff when the patch grew past its budget. */
const TOO_BIG = Symbol("too big");

/**
 * diff returns the operations that turn a into b (both JSON values made by
 * the pruner), or null when more than maxOps would be needed: then a full
 * observe is cheaper.
 * @param {any} a @param {any} b @param {number} maxOps
 * @returns {PatchOp[] | null}
 */
export function diff(a, b, maxOps) {
  /** @type {PatchOp[]} */
  const ops = [];
  const push = (/** @type {PatchOp} */ op) => {
    if (ops.length >= maxOps) throw TOO_BIG;
    ops.push(op);
  };
  try {
    walk(a, b, "", push);
  } catch (e) {
    if (e === TOO_BIG) return null;
    throw e;
  }
  return ops;
}

/**
 * @param {any} a @param {any} b @param {string} path
 * @param {(op: PatchOp) => void} push
 */
function walk(a, b, path, push) {
  if (a === b) return;
  const ao = a !== null && typeof a === "object";
  const bo = b !== null && typeof b === "object";
  if (ao && bo) {
    const aa = Array.isArray(a);
    if (aa && Array.isArray(b)) {
      const common = Math.min(a.length, b.length);
      for (let i = 0; i < common; i++) if (a[i] !== b[i]) walk(a[i], b[i], path + "/" + i, push);
      for (let i = common; i < b.length; i++) push({ op: "add", path: path + "/" + i, value: b[i] });
      for (let i = a.length - 1; i >= common; i--) push({ op: "remove", path: path + "/" + i });
      return;
    }
    // A cut marker is replaced whole, never patched member by member: the
    // module reads "$cut" as a marker only at the marker's own place.
    if (!aa && !Array.isArray(b) && !isCut(a) && !isCut(b)) {
      for (const k in a) {
        if (!Object.hasOwn(b, k)) push({ op: "remove", path: path + "/" + escapeToken(k) });
      }
      for (const k in b) {
        if (!Object.hasOwn(a, k)) push({ op: "add", path: path + "/" + escapeToken(k), value: b[k] });
        else if (a[k] !== b[k]) walk(a[k], b[k], path + "/" + escapeToken(k), push);
      }
      return;
    }
  }
  push({ op: "replace", path, value: b });
}
