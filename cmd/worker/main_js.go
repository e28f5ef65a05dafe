//go:build js && wasm

package main

import (
	"errors"
	"io"
	"net/http"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/pinholectx/pinhole/internal/wire"
	"github.com/syumai/workers"
)

// callHeader carries the tag under which entry.mjs holds a request's env
// and ctx. entry.mjs sets it on every request it forwards (replacing any a
// client sent), and serve removes it before the handler sees the request.
const callHeader = "X-Pinhole-Call"

// Garbage collector settings for a long-lived instance: collect less often
// (GOGC 400) while the heap is small, and collect hard before it passes
// the soft limit, well inside an isolate's 128 MB.
const (
	gcPercent   = 400
	memoryLimit = 48 << 20
)

// main serves the handler in the Worker. One Go instance serves every
// request of its isolate (entry.mjs starts it on the first request and
// keeps it), so main sets the handler, says it is ready and then only
// waits: syumai/workers' Serve would stop after the first response.
func main() {
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(memoryLimit)
	workers.ServeNonBlock(http.HandlerFunc(serve))
	workers.Ready()
	select {}
}

// runtimeContext is the object entry.mjs passed to this instance: its
// calls map holds each request's env and ctx under its tag, and retire
// tells entry.mjs to start a fresh instance for later requests.
var runtimeContext = js.Global().Get("context")

// served counts the requests this instance has answered.
var served int

// serveFault answers a fault-injection request and reports true, or
// reports false for any other request. Only a Worker built with the
// pinhole_faults tag has it (fault_js.go, the workerd tests' build); in the
// Worker that ships it is nil, so no setting can reach those endpoints.
var serveFault func(w http.ResponseWriter, r *http.Request, call js.Value, getenv func(string) string) bool

// serve answers one request with its own environment: it finds the env
// entry.mjs holds under the request's tag, builds the handler from it,
// and answers through a buffer handed to JavaScript whole (rawWriter).
// A panic fails this request alone, with a 500 internal_error, and
// retires the instance: entry.mjs starts a fresh one for the next request.
func serve(w http.ResponseWriter, r *http.Request) {
	bw := &bufferedWriter{header: w.Header(), status: http.StatusOK}
	var origins []string
	defer func() {
		if p := recover(); p != nil {
			logPanic(p)
			retire()
			bw.reset()
			commonHeaders(bw.header, r, origins)
			writeError(bw, http.StatusInternalServerError, wire.CodeInternal, "", "the Worker failed on this request; it was not completed")
		}
		bw.flush(w)
	}()
	served++
	tag := r.Header.Get(callHeader)
	r.Header.Del(callHeader)
	call := js.Undefined()
	if tag != "" {
		call = runtimeContext.Get("calls").Call("get", tag)
	}
	if call.Type() != js.TypeObject {
		commonHeaders(bw.header, r, nil)
		writeError(bw, http.StatusInternalServerError, wire.CodeInternal, "", "the Worker has no environment for this request")
		return
	}
	env := call.Get("env")
	getenv := func(name string) string {
		v := env.Get(name)
		if v.Type() != js.TypeString {
			return ""
		}
		return v.String()
	}
	cfg, err := ConfigFromEnv(getenv)
	origins = cfg.AllowedOrigins
	if g, ok := r.Body.(rawBody); ok {
		r.Body = &jsBody{stream: g.GetRawJSBody()}
	}
	// syumai/workers gives a body sent without a declared length (chunked)
	// a length of 0, which readBounded would take as declared: say unknown.
	if r.Header.Get("Content-Length") == "" {
		r.ContentLength = -1
	}
	if serveFault != nil && serveFault(bw, r, call, getenv) {
		return
	}
	handlerFor(cfg, err).ServeHTTP(bw, r)
}

// retire asks entry.mjs to send later requests to a fresh instance.
func retire() {
	if f := runtimeContext.Get("retire"); f.Type() == js.TypeFunction {
		f.Invoke()
	}
}

// logPanic logs where a panic happened: the functions on the stack, never
// the panic's value or arguments (they may hold request data).
func logPanic(p any) {
	msg := "pinhole worker: a request panicked; it was answered 500 and this Go instance retired"
	if e, ok := p.(runtime.Error); ok && !strings.Contains(e.Error(), "\"") {
		msg += " (" + e.Error() + ")"
	}
	var pcs [32]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs[:])])
	for {
		f, more := frames.Next()
		msg += "\n  " + f.Function + " " + f.File + ":" + strconv.Itoa(f.Line)
		if !more {
			break
		}
	}
	js.Global().Get("console").Call("error", msg)
}

// bufferedWriter holds an answer until the handler returns, so that a
// panic can still replace it and the body reaches JavaScript in one copy.
type bufferedWriter struct {
	header http.Header
	status int
	body   []byte
}

func (b *bufferedWriter) Header() http.Header { return b.header }

func (b *bufferedWriter) WriteHeader(status int) { b.status = status }

func (b *bufferedWriter) Write(p []byte) (int, error) {
	b.body = append(b.body, p...)
	return len(p), nil
}

// reset drops what the handler wrote, keeping the headers every answer
// carries (no-store, nosniff, CORS).
func (b *bufferedWriter) reset() {
	b.status, b.body = http.StatusOK, nil
	b.header.Del("Content-Type")
	b.header.Del("Content-Length")
	b.header.Del("Allow")
}

// rawWriter is what syumai/workers' response writer offers besides
// http.ResponseWriter: a JavaScript body used as is.
type rawWriter interface {
	WriteRawJSBody(body js.Value)
}

// flush hands the answer to JavaScript. The body goes as one Uint8Array
// (WriteRawJSBody), not through syumai/workers' response pipe: closing
// that pipe's reader ends syumai/workers' Done, once per instance, so an
// instance answering through it could serve one request only. Should the
// writer ever lack WriteRawJSBody, the answer goes through the pipe and
// the instance retires after it.
func (b *bufferedWriter) flush(w http.ResponseWriter) {
	if len(b.body) > 0 {
		b.header.Set("Content-Length", strconv.Itoa(len(b.body)))
	}
	rw, ok := w.(rawWriter)
	if !ok {
		retire()
		w.WriteHeader(b.status)
		w.Write(b.body)
		return
	}
	u := js.Global().Get("Uint8Array").New(len(b.body))
	js.CopyBytesToJS(u, b.body)
	rw.WriteRawJSBody(u)
	w.WriteHeader(b.status)
}

// rawBody is what syumai/workers' request body offers besides io.Reader:
// the JavaScript ReadableStream it reads from.
type rawBody interface {
	GetRawJSBody() js.Value
}

// jsBody reads a request body through body.mjs's readBody: each Read is
// one call into JavaScript, which gathers as many of the stream's chunks as
// the read asks for. syumai/workers' own reader makes a round trip through
// a promise, two Go callbacks and a goroutine switch for every chunk; with
// the body's declared length, readBounded reads it all in one call here.
type jsBody struct {
	stream js.Value
	err    error // what every later Read returns: io.EOF, a read's failure, or a read after Close
}

var errBodyRead = errors.New("the request body could not be read")

func (b *jsBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	res, ok := await(runtimeContext.Call("readBody", b.stream, len(p)))
	if !ok {
		b.err = errBodyRead
		return 0, b.err
	}
	n := js.CopyBytesToGo(p, res.Get("bytes"))
	if res.Get("done").Bool() {
		b.err = io.EOF
	}
	if n == 0 && b.err != nil {
		return 0, b.err
	}
	return n, nil
}

// Close stops reading: the rest of the body is cancelled, unread, and a
// later Read fails as net/http's bodies do.
func (b *jsBody) Close() error {
	if b.err == nil {
		runtimeContext.Call("cancelBody", b.stream)
	}
	b.err = http.ErrBodyReadAfterClose
	return nil
}

// await waits for a JavaScript promise and reports whether it fulfilled.
// A rejection's reason is not kept: it may quote the request.
func await(promise js.Value) (js.Value, bool) {
	type result struct {
		v  js.Value
		ok bool
	}
	ch := make(chan result, 1)
	then := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{args[0], true}
		return nil
	})
	defer then.Release()
	catch := js.FuncOf(func(_ js.Value, _ []js.Value) any {
		ch <- result{js.Undefined(), false}
		return nil
	})
	defer catch.Release()
	promise.Call("then", then, catch)
	r := <-ch
	return r.v, r.ok
}
