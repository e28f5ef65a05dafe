// Pretty JSON as HTML, with the members that tell an agent how much it is
// not seeing (totals, the record window, truncation and redaction)
// highlighted. Short objects and arrays stay on one line.
import { esc } from "./view.js";

const HIGHLIGHT = /^(recordWindow|\w+Total|truncated|redacted)$/;
const INLINE = 96;

/**
 * jsonHTML renders value as indented JSON; highlighted members are wrapped in <mark>.
 * @param {unknown} value
 * @param {string} [indent]
 * @returns {string}
 */
export function jsonHTML(value, indent = "") {
  if (value === null || typeof value !== "object") {
    const cls = typeof value === "string" ? "s" : typeof value === "number" ? "n" : "k";
    return `<span class="${cls}">${esc(JSON.stringify(value))}</span>`;
  }
  const inline = JSON.stringify(value).length <= INLINE;
  const inner = indent + "  ";
  const [open, close, sep, pad] = inline ? ["", "", ", ", ""] : ["\n", "\n" + indent, ",\n", inner];
  const sub = inline ? "" : inner;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[${open}${value.map((v) => pad + jsonHTML(v, sub)).join(sep)}${close}]`;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return "{}";
  const members = keys.map((k) => {
    const m = `<span class="key">${esc(JSON.stringify(k))}</span>: ${jsonHTML(value[k], sub)}`;
    return pad + (HIGHLIGHT.test(k) ? `<mark>${m}</mark>` : m);
  });
  return `{${open}${members.join(sep)}${close}}`;
}
