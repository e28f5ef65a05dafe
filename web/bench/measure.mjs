// Helpers shared by the benchmark runner and the report writer: summaries
// of samples, the interval of a ratio of medians, a benchmark's JSON
// output, token counts, the planted sensitive values found in a text, and
// the ids a text lets an agent reference.
import { existsSync, readFileSync } from "node:fs";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

/** The tokenizer, named in the report. */
export const TOKENIZER = { package: "gpt-tokenizer", version: "4.0.0", encoding: "o200k_base" };

/** tokens counts the o200k_base tokens of text. */
export const tokens = (text) => countTokens(text);

/**
 * summarize returns the median and the 10th and 90th percentiles of samples.
 * @param {number[]} xs
 * @returns {{median: number, p10: number, p90: number, n: number}}
 */
export function summarize(xs) {
  const s = xs.slice().sort((a, b) => a - b);
  const q = (p) => {
    if (!s.length) return NaN;
    const i = (s.length - 1) * p;
    const lo = Math.floor(i);
    return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (i - lo);
  };
  return { median: q(0.5), p10: q(0.1), p90: q(0.9), n: s.length };
}

/**
 * readJSON returns a benchmark's parsed JSON output, or null when the file
 * is missing or not JSON (the report then says the benchmark was not run).
 * @param {string} file
 */
export function readJSON(file) {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/**
 * ratioInterval gives a bootstrap interval for the ratio of the medians of
 * paired samples, median(a) ÷ median(b), where a[i] and b[i] were measured
 * in the same round: rounds are drawn with replacement, resamples times,
 * and the interval holds the middle level of the ratios so found. The
 * draws come from a fixed seed, so the same samples give the same
 * interval. On a busy machine a round's ratio spreads widely; a goal is
 * judged met or missed only when the whole interval is on one side of it.
 * @param {number[]} a
 * @param {number[]} b the same length as a
 * @param {{resamples?: number, level?: number, seed?: number}} [opts]
 * @returns {{lo: number, hi: number, level: number}}
 */
export function ratioInterval(a, b, { resamples = 4000, level = 0.9, seed = 1 } = {}) {
  if (a.length !== b.length || !a.length) throw new Error("ratioInterval: a and b must be non-empty and paired");
  let x = seed >>> 0;
  // mulberry32: small, fast and good enough to draw round indices.
  const random = () => {
    x = (x + 0x6d2b79f5) >>> 0;
    let t = Math.imul(x ^ (x >>> 15), 1 | x);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const n = a.length;
  const ra = new Array(n);
  const rb = new Array(n);
  const ratios = [];
  for (let k = 0; k < resamples; k++) {
    for (let i = 0; i < n; i++) {
      const j = Math.floor(random() * n);
      ra[i] = a[j];
      rb[i] = b[j];
    }
    ratios.push(summarize(ra).median / summarize(rb).median);
  }
  ratios.sort((p, q) => p - q);
  const at = (/** @type {number} */ p) => ratios[Math.min(ratios.length - 1, Math.max(0, Math.round((ratios.length - 1) * p)))];
  return { lo: at((1 - level) / 2), hi: at((1 + level) / 2), level };
}

/**
 * leaks counts the planted values (value → kind) that occur in text, as
 * whole values. The 8-character prefixes of the values are indexed and the
 * text is scanned once, so large texts and long lists stay fast; values
 * shorter than 8 characters are searched directly.
 * @param {string} text
 * @param {Map<string, string>} planted
 * @returns {{count: number, kinds: Record<string, number>}}
 */
export function leaks(text, planted) {
  const L = 8;
  /** prefix → the planted values that start with it */
  const byPrefix = new Map();
  const short = [];
  for (const [v, kind] of planted) {
    if (!v) continue;
    if (v.length < L) { short.push([v, kind]); continue; }
    const k = v.slice(0, L);
    const list = byPrefix.get(k);
    if (list) list.push([v, kind]);
    else byPrefix.set(k, [[v, kind]]);
  }
  const found = new Map();
  for (let i = 0; i + L <= text.length; i++) {
    const list = byPrefix.get(text.slice(i, i + L));
    if (!list) continue;
    for (const [v, kind] of list) if (!found.has(v) && text.startsWith(v, i)) found.set(v, kind);
  }
  for (const [v, kind] of short) if (text.includes(v)) found.set(v, kind);
  const kinds = {};
  for (const kind of found.values()) kinds[kind] = (kinds[kind] ?? 0) + 1;
  return { count: found.size, kinds };
}

/**
 * leaksInValue counts the planted values that are string values somewhere
 * in a JSON-like value (for a dump of the whole store, too large to index).
 * @param {any} value
 * @param {Map<string, string>} planted
 */
export function leaksInValue(value, planted) {
  const strings = new Set();
  const walk = (v) => {
    if (typeof v === "string") strings.add(v);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === "object") for (const k in v) walk(v[k]);
  };
  walk(value);
  const kinds = {};
  let count = 0;
  for (const [v, kind] of planted) {
    if (v && strings.has(v)) { count++; kinds[kind] = (kinds[kind] ?? 0) + 1; }
  }
  return { count, kinds };
}

/** orderIds counts the distinct order numbers (SO-…) a text names. */
export function orderIds(text) {
  return new Set(text.match(/\bSO-\d+\b/g) ?? []).size;
}

/** elementRefs counts the element references ([ref=e12]) of an AI-mode aria snapshot. */
export function elementRefs(text) {
  return (text.match(/\[ref=[a-z0-9]+\]/g) ?? []).length;
}
