// Package host runs pinhole.wasm in a Go program with
// github.com/tetratelabs/wazero, so that Go hosts, tests and the CLI drive
// the very module bytes a browser or Node runs. Package pinhole (the
// module root) runs the same core natively, without a WebAssembly runtime,
// behind the same methods.
//
// A Module is the compiled pinhole.wasm; compile it once. A Session is one
// instance of it, one agent session: its own manifest, snapshots, key and
// audit queue, isolated from every other Session. The module is given no
// files, no environment and no arguments; it sees only real clocks and
// crypto/rand randomness.
//
//	mod, err := host.Compile(ctx, wasmBytes)
//	s, err := mod.NewSession(ctx)
//	resp, err := s.Load(ctx, manifestJSON, "")
//
// Session.Call speaks the raw ABI: one JSON request in, one JSON response
// out. Load, Observe, ObservePatch, Describe, Prepare and After build the
// request for one operation and return the response bytes together with a *pinhole.Error
// when the module answered {"error": ...}.
package host

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/pinholectx/pinhole"
	"github.com/pinholectx/pinhole/internal/wire"
)

// ErrTrapped is wrapped by the error of a call during which the module
// trapped (a WebAssembly runtime error, an exit of the guest, or the end of
// the call's context). The Session is dead afterwards: every later call
// fails with ErrTrapped. Create a new Session to go on.
var ErrTrapped = errors.New("pinhole: the module trapped; the session is dead")

// ErrClosed is returned by calls on a closed Session or through a closed
// Module.
var ErrClosed = errors.New("pinhole: closed")

// Option configures Compile.
type Option func(*config)

type config struct {
	cache     wazero.CompilationCache
	interrupt bool
	noReserve bool
}

// WithCompilationCache makes Compile use c, for example one shared by several
// Modules in a process (wazero.NewCompilationCache) or one kept on disk
// between runs (wazero.NewCompilationCacheWithDir). The caller closes c after
// the Modules that use it.
func WithCompilationCache(c wazero.CompilationCache) Option {
	return func(cfg *config) { cfg.cache = c }
}

// WithCloseOnContextDone makes every call watch its context: when the
// context is done during a call, the call stops at once and the Session is
// dead (the error wraps ErrTrapped and the context's error). Without it a
// call that has started runs to its end; the module bounds its own work (a
// request is at most pinhole.MaxRequestBytes). The watch is not free: it
// made calls several times slower in our measurements.
func WithCloseOnContextDone() Option {
	return func(cfg *config) { cfg.interrupt = true }
}

// Module is a compiled pinhole.wasm. It is safe for concurrent use: any
// number of goroutines may create Sessions from one Module.
type Module struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	cfg      wazero.ModuleConfig
	alloc    experimental.MemoryAllocator // nil: wazero's copying default
	closed   atomic.Bool
}

// Compile compiles pinhole.wasm and prepares the WASI preview1 functions it
// imports.
func Compile(ctx context.Context, wasm []byte, opts ...Option) (*Module, error) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	rc := wazero.NewRuntimeConfig().WithCloseOnContextDone(c.interrupt)
	if c.cache != nil {
		rc = rc.WithCompilationCache(c.cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, rc)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("pinhole: instantiating WASI: %w", err)
	}
	compiled, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("pinhole: compiling the module: %w", err)
	}
	for _, name := range []string{"pinhole_alloc", "pinhole_free", "pinhole_call", "_initialize"} {
		if _, ok := compiled.ExportedFunctions()[name]; !ok {
			rt.Close(ctx)
			return nil, fmt.Errorf("pinhole: the module does not export %s; is it pinhole.wasm?", name)
		}
	}
	// A wasip1 reactor: _initialize sets up the Go runtime, no _start.
	// Anonymous instances, so that one Runtime holds any number of them.
	cfg := wazero.NewModuleConfig().
		WithName("").
		WithStartFunctions("_initialize").
		WithRandSource(rand.Reader).
		WithSysWalltime().
		WithSysNanotime().
		WithSysNanosleep()
	return &Module{rt: rt, compiled: compiled, cfg: cfg, alloc: c.memoryAllocator()}, nil
}

// Close releases the Module and closes every Session created from it.
func (m *Module) Close(ctx context.Context) error {
	if m.closed.Swap(true) {
		return nil
	}
	return m.rt.Close(ctx)
}

// NewSession instantiates the module: a fresh, empty session with nothing
// loaded.
func (m *Module) NewSession(ctx context.Context) (*Session, error) {
	if m.closed.Load() {
		return nil, ErrClosed
	}
	// A nil allocator leaves wazero's copying default in place.
	inst, err := m.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, m.alloc), m.compiled, m.cfg)
	if err != nil {
		return nil, fmt.Errorf("pinhole: instantiating the module: %w", err)
	}
	return &Session{
		mod:   inst,
		alloc: inst.ExportedFunction("pinhole_alloc"),
		free:  inst.ExportedFunction("pinhole_free"),
		call:  inst.ExportedFunction("pinhole_call"),
	}, nil
}

// Session is one instance of the module. It is not safe for concurrent use:
// calls on one Session must not overlap. Use one Session per agent session
// and per goroutine.
type Session struct {
	mod               api.Module
	alloc, free, call api.Function
	stack             [2]uint64
	err               error // ErrClosed or a wrapped ErrTrapped once dead
}

// Call sends one request (a JSON object with "op") and returns the module's
// response. A response that is an {"error": ...} object is still a
// response: the error result is only for a dead or closed Session, or a
// context that was done before the call.
func (s *Session) Call(ctx context.Context, req []byte) ([]byte, error) {
	if s.err != nil {
		return nil, s.err
	}
	if err := ctx.Err(); err != nil { // nothing ran: the session lives on
		return nil, err
	}
	if s.mod.IsClosed() { // its Module was closed
		s.err = ErrClosed
		return nil, s.err
	}
	if uint64(len(req)) > 1<<32-1 {
		return nil, errors.New("pinhole: the request does not fit in the module's memory")
	}
	s.stack[0] = uint64(len(req))
	if err := s.alloc.CallWithStack(ctx, s.stack[:]); err != nil {
		return nil, s.trap(ctx, "pinhole_alloc", err)
	}
	ptr := uint32(s.stack[0])
	if !s.mod.Memory().Write(ptr, req) {
		return nil, s.trap(ctx, "pinhole_alloc", errors.New("the buffer lies outside memory"))
	}
	s.stack[0], s.stack[1] = uint64(ptr), uint64(len(req))
	if err := s.call.CallWithStack(ctx, s.stack[:]); err != nil {
		return nil, s.trap(ctx, "pinhole_call", err)
	}
	packed := s.stack[0]
	out, ok := s.mod.Memory().Read(uint32(packed>>32), uint32(packed))
	if !ok {
		return nil, s.trap(ctx, "pinhole_call", errors.New("the response lies outside memory"))
	}
	out = bytes.Clone(out) // valid only until the next call
	s.stack[0] = uint64(ptr)
	if err := s.free.CallWithStack(ctx, s.stack[:]); err != nil {
		return nil, s.trap(ctx, "pinhole_free", err)
	}
	return out, nil
}

// trap marks the session dead and closes its instance.
func (s *Session) trap(ctx context.Context, fn string, cause error) error {
	if ctx.Err() != nil {
		cause = fmt.Errorf("%w (%v)", ctx.Err(), cause)
	}
	s.err = fmt.Errorf("%w: %s: %w", ErrTrapped, fn, cause)
	s.mod.Close(context.WithoutCancel(ctx))
	return s.err
}

// Close releases the instance. Later calls return ErrClosed.
func (s *Session) Close(ctx context.Context) error {
	if s.err == ErrClosed {
		return nil
	}
	s.err = ErrClosed
	return s.mod.Close(ctx)
}

// Load loads a manifest (its JSON text) into the session. key is the
// per-session key that derives aliases and placeholders (16 to 256 bytes);
// when it is empty the module draws a random one, as production should.
func (s *Session) Load(ctx context.Context, manifest []byte, key string) ([]byte, error) {
	return s.op(ctx, wire.LoadRequest(manifest, key))
}

// Observe hands the module the full declared state (its JSON text: an
// object holding only what the load answer's reads allow).
func (s *Session) Observe(ctx context.Context, state []byte) ([]byte, error) {
	return s.op(ctx, wire.ObserveRequest(state))
}

// ObservePatch hands the module an RFC 6902 JSON Patch (its JSON text)
// against the state it last observed. A patch that does not apply changes
// nothing.
func (s *Session) ObservePatch(ctx context.Context, patch []byte) ([]byte, error) {
	return s.op(ctx, wire.ObservePatchRequest(patch))
}

// Describe asks for the context. request is the describe request object
// without "op" ({}, {"offset":8,"limit":8}, {"record":["SO-1"]});
// nil or empty means {}. A request that is not an object is answered with
// an invalid_request error without a call into the module.
func (s *Session) Describe(ctx context.Context, request []byte) ([]byte, error) {
	req, e := wire.DescribeRequest(request)
	if e != nil {
		return wire.Encode(&wire.ErrorResponse{Error: e}), e
	}
	return s.op(ctx, req)
}

// Prepare checks an execution against the current snapshot and answers
// with its input resolved for the application's handler: placeholders and
// aliases become the real values. The answer is for the handler only,
// never for the agent.
func (s *Session) Prepare(ctx context.Context, req pinhole.PrepareRequest) ([]byte, error) {
	return s.op(ctx, req.Request())
}

// After answers what changed since the snapshot the agent saw.
func (s *Session) After(ctx context.Context, since string) ([]byte, error) {
	return s.op(ctx, wire.AfterRequest(since))
}

func (s *Session) op(ctx context.Context, req []byte) ([]byte, error) {
	out, err := s.Call(ctx, req)
	if err != nil {
		return nil, err
	}
	return out, ResponseError(out)
}

// ResponseError returns the *pinhole.Error of an {"error": ...} response,
// and nil for any other response; it is pinhole.ResponseError.
func ResponseError(resp []byte) error { return pinhole.ResponseError(resp) }
