// What a DOM or accessibility snapshot of the console would hand an agent,
// computed in the page: the visible text plus form values and the attributes
// snapshot tools commonly include (title, aria-*, alt, placeholder, href,
// data-*). Used by the agent panel's comparison and by the e2e tests.

const ATTR = /^(title|alt|placeholder|href|value|aria-.*|data-.*)$/;

/**
 * domSnapshot returns the text a DOM snapshot of root would contain.
 * @param {HTMLElement} root
 * @returns {string}
 */
export function domSnapshot(root) {
  const parts = [root.innerText];
  for (const el of root.querySelectorAll("*")) {
    for (const a of el.attributes) if (ATTR.test(a.name) && a.value) parts.push(`${a.name}=${a.value}`);
    if ((el instanceof HTMLInputElement || el instanceof HTMLSelectElement) && el.value && !el.hasAttribute("value")) {
      parts.push(`value=${el.value}`);
    }
  }
  return parts.join("\n");
}

/**
 * plantedValues lists the values of the store that no agent should receive
 * verbatim, for the orders in `orders` plus the session-wide ones.
 * @param {any} state the store state
 * @param {Iterable<any>} orders
 * @returns {Map<string, string>} value → what it is
 */
export function plantedValues(state, orders) {
  const m = new Map([
    [state.session.token, "session token"],
    [state.router.query.debug, "debug trace id"],
    [state.session.user.email, "user e-mail"],
  ]);
  for (const o of orders) {
    m.set(o.customer.email, "customer e-mail");
    m.set(o.customer.phone, "customer phone");
    m.set(o.payment.card, "card number");
    m.set(o.payment.authCode, "payment auth code");
    m.set(o.internalNote, "internal note");
    m.set(o.customer.id, "customer id");
    m.set(o.customer.address.street, "street address");
  }
  return m;
}

/**
 * leaks returns the planted values found in text, as [value, what] pairs.
 * Matching is by whole value, the way a reader would find it.
 * @param {string} text
 * @param {Map<string, string>} planted
 */
export function leaks(text, planted) {
  const found = [];
  for (const [v, what] of planted) if (v && text.includes(v)) found.push([v, what]);
  return found;
}
