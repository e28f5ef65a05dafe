//go:build js && wasm && pinhole_faults

// The fault-injection endpoints exist only in the Worker the workerd tests
// build (make worker-test: -tags pinhole_faults, into build/worker-test);
// the Worker that ships (make worker) is built without this file.

package main

import (
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/pinholectx/pinhole/cmd/internal/randkey"
	"github.com/pinholectx/pinhole/internal/jsonval"
)

// faultPrefix is the path prefix of the fault-injection endpoints.
const faultPrefix = "/__test/"

func init() {
	serveFault = func(w http.ResponseWriter, r *http.Request, call js.Value, getenv func(string) string) bool {
		if !strings.HasPrefix(r.URL.Path, faultPrefix) || getenv(EnvTestFaults) != "1" {
			return false
		}
		fault(w, r, call)
		return true
	}
}

// instanceID names this Go instance.
var instanceID = func() string {
	var b [8]byte
	randkey.Fill(b[:])
	const hex = "0123456789abcdef"
	out := make([]byte, 0, 16)
	for _, c := range b {
		out = append(out, hex[c>>4], hex[c&15])
	}
	return string(out)
}()

// fault serves the fault-injection endpoints the workerd tests use to
// check instance reuse, per-request environments and panics:
//
//	/__test/instance  {"instance": id of this Go instance, "served": requests
//	                  so far, "memoryBytes": size of its linear memory,
//	                  "goroutines": goroutines alive in it}
//	/__test/call      reads the body, then {"header", "record"}: the
//	                  X-Test-Nonce header as Go got it, and as the request
//	                  entry.mjs holds under this request's tag
//	/__test/grow      allocates ?bytes=N bytes for the request's duration,
//	                  so the instance's linear memory grows past N
//	/__test/panic     reads the body, then panics in the handler
//	/__test/crash     reads the body, then panics on another goroutine,
//	                  which ends the Go program (no recover can catch it)
func fault(w http.ResponseWriter, r *http.Request, call js.Value) {
	io.Copy(io.Discard, r.Body)
	switch r.URL.Path[len(faultPrefix):] {
	case "instance":
		out := append([]byte(`{"instance":`), jsonval.AppendString(nil, instanceID)...)
		out = append(append(out, `,"served":`...), strconv.Itoa(served)...)
		out = append(append(out, `,"memoryBytes":`...), strconv.Itoa(runtimeContext.Call("memoryBytes").Int())...)
		out = append(append(out, `,"goroutines":`...), strconv.Itoa(runtime.NumGoroutine())...)
		writeJSON(w, http.StatusOK, append(out, '}'))
	case "call":
		rec := call.Get("request").Get("headers").Call("get", "x-test-nonce")
		s := ""
		if rec.Type() == js.TypeString {
			s = rec.String()
		}
		out := append([]byte(`{"header":`), jsonval.AppendString(nil, r.Header.Get("X-Test-Nonce"))...)
		out = append(append(out, `,"record":`...), jsonval.AppendString(nil, s)...)
		writeJSON(w, http.StatusOK, append(out, '}'))
	case "grow":
		n, _ := strconv.Atoi(r.URL.Query().Get("bytes"))
		b := make([]byte, n)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		writeJSON(w, http.StatusOK, []byte(`{"grown":`+strconv.Itoa(len(b))+`}`))
	case "panic":
		var m map[string]int
		m["fault"]++ // a nil map: a runtime error, recovered by serve
	case "crash":
		go func() { panic("pinhole worker: injected crash") }()
		select {}
	default:
		http.NotFound(w, r)
	}
}
