// Package pinhole runs Pinhole's core natively in a Go program: the same
// code that pinhole.wasm is built from, called directly, without a
// WebAssembly runtime. A Go server that projects contexts for its agents,
// or a test that asserts what an agent will see, can use it; package host
// runs the module itself under wazero, for programs that want the very
// bytes a browser runs.
//
// A Session is one agent session: a loaded manifest, its snapshots, a
// session key and an audit queue, isolated from every other Session.
// Session.Call speaks the module's protocol: one JSON request in, one JSON
// response out. Load, Observe, ObservePatch, Describe, Prepare and After
// build the request for one operation and return the response bytes together with an
// error that is a *Error when the answer is {"error": ...}.
//
//	s := pinhole.NewSession()
//	_, err := s.Load(manifestJSON, "")
//	_, err = s.Observe(stateJSON)
//	context, err := s.Describe(nil)
//
// Error codes are the constants Code…: every error response, from this
// package, the module, the CLI, the Worker or the JavaScript bridge,
// carries one of them.
package pinhole

import (
	"crypto/rand"
	"io"

	"github.com/pinholectx/pinhole/internal/session"
	"github.com/pinholectx/pinhole/internal/wire"
)

// Error is the body of an error response: a Code (one of the Code…
// constants), a Message that names parameters, JSON Pointers and limits
// but never state values, and Param, the parameter or JSON Pointer at
// fault when there is one. *Error is a Go error; package host returns the
// same type.
type Error = wire.Error

// The error codes. Their meaning is listed with internal/wire's, the one
// list every runtime answers from.
const (
	CodeInvalidRequest        = wire.CodeInvalidRequest
	CodeRecordWithWindow      = wire.CodeRecordWithWindow
	CodeRecordCount           = wire.CodeRecordCount
	CodeLimitExceedsMax       = wire.CodeLimitExceedsMax
	CodeInvalidOffset         = wire.CodeInvalidOffset
	CodeUnknownRecord         = wire.CodeUnknownRecord
	CodeInvalidManifest       = wire.CodeInvalidManifest
	CodeInvalidState          = wire.CodeInvalidState
	CodeStateTooLarge         = wire.CodeStateTooLarge
	CodeUnknownCapability     = wire.CodeUnknownCapability
	CodeCapabilityUnavailable = wire.CodeCapabilityUnavailable
	CodeInvalidInput          = wire.CodeInvalidInput
	CodeStaleSnapshot         = wire.CodeStaleSnapshot
	CodeNotLoaded             = wire.CodeNotLoaded
	CodeInternal              = wire.CodeInternal
	CodeActionFailed          = wire.CodeActionFailed // answered by the JavaScript bridge only
)

// MaxRequestBytes bounds one request, a full observe included; a larger
// one is answered with state_too_large.
const MaxRequestBytes = session.MaxRequestBytes

// PrepareRequest names an execution for Prepare: the capability, the
// record it acts on (empty for a page-scope capability), its input as JSON
// text (nil for none) and the snapshot the agent decided on (empty for the
// current one).
type PrepareRequest = wire.PrepareParams

// Option configures NewSession.
type Option func(*config)

type config struct {
	rand io.Reader
}

// WithRandSource makes a Session draw its session key from r when a Load
// brings none. The default is crypto/rand.Reader; a Session whose source
// fails refuses such a Load.
func WithRandSource(r io.Reader) Option {
	return func(c *config) { c.rand = r }
}

// Session is one agent session. It is not safe for concurrent use: calls on
// one Session must not overlap.
type Session struct {
	s *session.Session
}

// NewSession returns an empty session: nothing loaded.
func NewSession(opts ...Option) *Session {
	c := config{rand: rand.Reader}
	for _, o := range opts {
		o(&c)
	}
	r := c.rand
	return &Session{s: session.NewWithRandom(func(b []byte) error {
		_, err := io.ReadFull(r, b)
		return err
	})}
}

// Call runs one request (a JSON object with "op") and returns the JSON
// response, which may be an {"error": ...} object (see ResponseError).
// It never panics and never fails otherwise.
func (s *Session) Call(req []byte) []byte { return s.s.Call(req) }

// Load loads a manifest (its JSON text). key is the per-session key that
// derives aliases and placeholders (16 to 256 bytes); when it is empty the
// session draws a random one, as production should.
func (s *Session) Load(manifest []byte, key string) ([]byte, error) {
	return s.op(wire.LoadRequest(manifest, key))
}

// Observe hands the session the full declared state (its JSON text).
// Undeclared data in it is pruned before anything is kept.
func (s *Session) Observe(state []byte) ([]byte, error) {
	return s.op(wire.ObserveRequest(state))
}

// ObservePatch hands the session an RFC 6902 JSON Patch (its JSON text)
// against the state it last observed: the cheap way to follow a store that
// changes a little at a time. A patch that does not apply changes nothing.
func (s *Session) ObservePatch(patch []byte) ([]byte, error) {
	return s.op(wire.ObservePatchRequest(patch))
}

// Describe asks for the context. request is the describe request object
// without "op" ({}, {"offset":8,"limit":8}, {"record":["SO-1"]}); nil or
// empty means {}.
func (s *Session) Describe(request []byte) ([]byte, error) {
	req, e := wire.DescribeRequest(request)
	if e != nil {
		return wire.Encode(&wire.ErrorResponse{Error: e}), e
	}
	return s.op(req)
}

// Prepare checks an execution against the current snapshot and answers
// with its input resolved for the application's handler: placeholders and
// aliases become the real values. The answer is for the handler only,
// never for the agent.
func (s *Session) Prepare(req PrepareRequest) ([]byte, error) {
	return s.op(req.Request())
}

// After answers what changed since the snapshot the agent saw.
func (s *Session) After(since string) ([]byte, error) {
	return s.op(wire.AfterRequest(since))
}

func (s *Session) op(req []byte) ([]byte, error) {
	out := s.s.Call(req)
	return out, ResponseError(out)
}

// ResponseError returns the *Error of an {"error": ...} response, and nil
// for any other response. It reads responses from any runtime: this
// package, the module, the CLI or the Worker.
func ResponseError(resp []byte) error {
	if e := wire.DecodeError(resp); e != nil {
		return e
	}
	return nil
}
