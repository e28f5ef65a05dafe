package wire

import "github.com/pinholectx/pinhole/internal/jsonval"

// DecodeError returns the error a response carries, or nil when the
// response is not an error ({"error": {...}}). Hosts use it to turn module
// answers into Go errors; it reads with the module's own strict parser, so
// the encoders stay the only generated code.
func DecodeError(resp []byte) *Error {
	if len(resp) < 9 || string(resp[:9]) != `{"error":` {
		return nil
	}
	v, err := jsonval.Parse(resp)
	if err != nil {
		return &Error{Code: CodeInternal, Message: "the module answered with malformed JSON"}
	}
	body := v.Get("error")
	str := func(k string) string {
		if s := body.Get(k); s != nil && s.Kind == jsonval.String {
			return s.S
		}
		return ""
	}
	return &Error{Code: str("code"), Message: str("message"), Param: str("param")}
}
