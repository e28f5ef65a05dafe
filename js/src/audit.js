// Audit: the bridge's own events (boundary warnings, sync errors, recovery,
// handler failures) and the module's audit queue, drained after each call,
// all handed to the app's onAudit. No event carries a store value, an
// argument or a body; a faulty sink cannot break the bridge.

/** @typedef {import('./types.js').AuditEvent} AuditEvent */

/** Distinct boundary warnings reported before the rest are only counted. */
export const MAX_WARNINGS = 100;

/** @typedef {import('./rooms.js').AuditRoom} AuditRoom */

/**
 * Audit hands the bridge's and the module's audit events to onAudit.
 * @implements {AuditRoom}
 */
export class Audit {
  /**
   * @param {((event: AuditEvent) => void) | undefined} sink the app's onAudit
   * @param {import('./rooms.js').ModuleLink} link where the module's queue is read
   */
  constructor(sink, link) {
    this.sink = sink;
    this.link = link;
    /** @type {Set<string>} */
    this.warned = new Set();
    this.suppressed = 0;
  }

  /** @param {AuditEvent} ev */
  emit(ev) {
    const f = this.sink;
    if (!f) return;
    try {
      f(ev);
    } catch {
      // The audit sink's fault is its own.
    }
  }

  /**
   * warn reports a value left out at the boundary, once per rule and path;
   * past MAX_WARNINGS distinct ones they are only counted.
   * @param {string} rule @param {string} path
   */
  warn(rule, path) {
    const k = rule + " " + path;
    if (this.warned.has(k)) return;
    if (this.warned.size >= MAX_WARNINGS) {
      this.suppressed++;
      return;
    }
    this.warned.add(k);
    this.emit({ source: "bridge", kind: "boundary", rule, path });
  }

  /**
   * drain reports the suppressed-warning count and the module's queued events.
   * @returns {Promise<void>}
   */
  async drain() {
    if (!this.sink || this.link.closed) return;
    if (this.suppressed) {
      this.emit({ source: "bridge", kind: "boundary_suppressed", count: this.suppressed });
      this.suppressed = 0;
    }
    let resp;
    try {
      resp = await this.link.exclusive(async () => this.link.parse("audit", await this.link.request({ op: "audit" })));
    } catch {
      return;
    }
    for (const e of resp.events || []) {
      if (e.op === "audit") continue;
      this.emit({ source: "module", ...e });
    }
  }
}
