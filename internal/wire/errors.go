package wire

// Error codes, as DESIGN §4 lists them.
const (
	CodeInvalidRequest        = "invalid_request"
	CodeRecordWithWindow      = "record_with_window"
	CodeRecordCount           = "record_count"
	CodeLimitExceedsMax       = "limit_exceeds_max"
	CodeInvalidOffset         = "invalid_offset"
	CodeUnknownRecord         = "unknown_record"
	CodeInvalidManifest       = "invalid_manifest"
	CodeInvalidState          = "invalid_state"
	CodeStateTooLarge         = "state_too_large"
	CodeUnknownCapability     = "unknown_capability"
	CodeCapabilityUnavailable = "capability_unavailable"
	CodeInvalidInput          = "invalid_input"
	CodeStaleSnapshot         = "stale_snapshot"
	CodeNotLoaded             = "not_loaded"
)

// Error is the body of every failed operation. Messages name parameters,
// JSON Pointers and limits; they never quote state values.
//
//easyjson:json
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Param   string `json:"param,omitempty"`
}

// Error makes *Error a Go error.
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf builds an *Error. It exists so that call sites read as one line.
func Errorf(code, param, message string) *Error {
	return &Error{Code: code, Message: message, Param: param}
}

// ErrorResponse is the envelope of a failed operation: {"error": {...}}.
//
//easyjson:json
type ErrorResponse struct {
	Error *Error `json:"error"`
}

// Codes of last resort and of the bridge: internal_error (the session's
// answer to a fault of its own, and the JavaScript bridge's when the module
// fails twice in one call) and action_failed (produced only by the
// JavaScript bridge, when the app's handler throws). Every code an answer
// can carry is listed in this file; js/test/errors.test.js fails when the
// bridge's list differs.
const (
	CodeInternal     = "internal_error"
	CodeActionFailed = "action_failed"
)
