// Error objects of the bridge: the one list of error codes (the module's,
// from internal/wire/errors.go, plus those only the bridge produces) and the
// one way to build an error answer. test/errors.test.js fails when this list,
// the ErrorCode union of types.ts and the Go list disagree.

/** @typedef {import('./types.js').ErrorCode} ErrorCode */
/** @typedef {import('./types.js').PinholeError} PinholeError */

/**
 * Every error code an answer can carry, in the order of internal/wire/errors.go.
 * @type {readonly ErrorCode[]}
 */
export const ERROR_CODES = Object.freeze(/** @type {const} */ ([
  "invalid_request",
  "record_with_window",
  "record_count",
  "limit_exceeds_max",
  "invalid_offset",
  "unknown_record",
  "invalid_manifest",
  "invalid_state",
  "state_too_large",
  "unknown_capability",
  "capability_unavailable",
  "invalid_input",
  "stale_snapshot",
  "not_loaded",
  "internal_error",
  "action_failed",
]));

/**
 * errorOf builds an error answer, with the arguments in the order of Go's
 * wire.NewError: code, message, then the parameter or pointer at fault.
 * Messages name parameters and limits; they never quote values.
 * @param {ErrorCode} code @param {string} message @param {string} [param]
 * @returns {PinholeError}
 */
export function errorOf(code, message, param) {
  return { error: param === undefined ? { code, message } : { code, message, param } };
}

/** Thrown by createPinhole when the module rejects the manifest or the key. */
export class PinholeSetupError extends Error {
  /** @param {PinholeError} err */
  constructor(err) {
    super(`pinhole: ${err.error.code}: ${err.error.message}`);
    this.name = "PinholeSetupError";
    this.error = err.error;
  }
}
