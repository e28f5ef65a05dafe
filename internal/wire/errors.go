package wire

// Error codes: the one list of every code an error response can carry,
// whoever answers it (the module, the Go host, the CLI, the Worker or the
// JavaScript bridge). js/src/types.ts mirrors it as a union and
// js/src/errors.js as a list; js/test/errors.test.js fails when they differ.
// A new code is added here, with who answers it, and nowhere else first.
const (
	// CodeInvalidRequest: a request that is not JSON, has no or an unknown
	// op, an unknown or malformed parameter (module, host, CLI, Worker).
	CodeInvalidRequest = "invalid_request"
	// CodeRecordWithWindow: describe with record and offset or limit.
	CodeRecordWithWindow = "record_with_window"
	// CodeRecordCount: describe's record selection is empty or too long.
	CodeRecordCount = "record_count"
	// CodeLimitExceedsMax: describe's limit above maxLimit; never clamped.
	CodeLimitExceedsMax = "limit_exceeds_max"
	// CodeInvalidOffset: describe's offset is not a non-negative integer.
	CodeInvalidOffset = "invalid_offset"
	// CodeUnknownRecord: a record id that is not referenceable now (unknown
	// and inactive ids answer alike).
	CodeUnknownRecord = "unknown_record"
	// CodeInvalidManifest: load (or lint) of a manifest the compiler
	// rejects; param is the JSON Pointer of the fault in the manifest.
	CodeInvalidManifest = "invalid_manifest"
	// CodeInvalidState: an observe whose state or patch cannot be used (the
	// previous state stays in force), or a describe, prepare or after while
	// the manifest's session scope is absent from the state or cut (param:
	// the scope's pointer; no context is given until it is back).
	CodeInvalidState = "invalid_state"
	// CodeStateTooLarge: a request or body above its byte bound, or a
	// response whose fixed part cannot fit maxResponseBytes.
	CodeStateTooLarge = "state_too_large"
	// CodeUnknownCapability: prepare names a capability the manifest does
	// not declare.
	CodeUnknownCapability = "unknown_capability"
	// CodeCapabilityUnavailable: prepare of a capability that cannot run
	// now; the message is the application's reason.
	CodeCapabilityUnavailable = "capability_unavailable"
	// CodeInvalidInput: prepare's input does not match the capability's
	// input schema, or holds a token that does not resolve.
	CodeInvalidInput = "invalid_input"
	// CodeStaleSnapshot: prepare or after against a snapshot that is no
	// longer held, or whose touched parts changed since.
	CodeStaleSnapshot = "stale_snapshot"
	// CodeNotLoaded: an operation before the load or observe it needs.
	CodeNotLoaded = "not_loaded"
	// CodeInternal: a fault of the implementation or its configuration,
	// never of the input (module, host, Worker, bridge).
	CodeInternal = "internal_error"
	// CodeActionFailed: the application's handler for a capability threw
	// (the JavaScript bridge only; the message never carries what it threw).
	CodeActionFailed = "action_failed"
)

// FindingRiskyDeclaration is the code of a lint warning (the Worker's
// /v1/lint findings): a declaration that may expose what it should not. It
// is a finding, never an error response, so it is not among Codes.
const FindingRiskyDeclaration = "risky_declaration"

// FindingPathNotInState is the code of a lint warning about a declared path
// a sample state has no place for: a typo in a from, or a store of another
// shape, which would show the agent nothing there without an error.
const FindingPathNotInState = "path_not_in_state"

// Codes returns every error code above, in the order they are listed.
func Codes() []string {
	return []string{
		CodeInvalidRequest, CodeRecordWithWindow, CodeRecordCount, CodeLimitExceedsMax,
		CodeInvalidOffset, CodeUnknownRecord, CodeInvalidManifest, CodeInvalidState,
		CodeStateTooLarge, CodeUnknownCapability, CodeCapabilityUnavailable,
		CodeInvalidInput, CodeStaleSnapshot, CodeNotLoaded, CodeInternal,
		CodeActionFailed,
	}
}

// Error is the body of every failed operation. Messages name parameters,
// JSON Pointers and limits; they never quote state values.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Param   string `json:"param,omitempty"`
}

// Error makes *Error a Go error.
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// NewError builds an *Error from its code, its message and the parameter
// or JSON Pointer it names ("" for none): the order of the bridge's
// errorOf(code, message, param).
func NewError(code, message, param string) *Error {
	return &Error{Code: code, Message: message, Param: param}
}

// ErrorResponse is the envelope of a failed operation: {"error": {...}}.
type ErrorResponse struct {
	Error *Error `json:"error"`
}
