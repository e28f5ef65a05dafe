//go:build wasip1

package main

import (
	"runtime"
	"unsafe"

	"github.com/pinholectx/pinhole/internal/session"
)

var (
	// sess is the module's session: a value in the module's data, not an
	// object on the heap (every allocation of a start counts: BENCHMARKS.md,
	// "Tier-up budgets at start-up"). Its randomness is set in init.
	sess session.Session
	// buffers keeps host-filled request buffers alive until pinhole_free.
	// A host holds one or two at a time, so a list is searched: a map's
	// code would be compiled on every start of the module. Its first few
	// entries are in bufferRoom, in the module's data.
	bufferRoom [4]hostBuffer
	buffers    = bufferRoom[:0]
	// last keeps the previous response alive until the next call.
	last []byte
)

// wasiRandomGet is WASI's random_get, imported here rather than through
// package syscall: syscall's init opens the preopened directories, which
// would make the module import five more WASI functions for nothing.
//
//go:wasmimport wasi_snapshot_preview1 random_get
//go:noescape
func wasiRandomGet(buf unsafe.Pointer, n uint32) uint32

func init() { sess.UseRandom(randomGet) } // WASI random_get: the host's randomness

// errRandom is random_get's failure: a value of a type of its own rather
// than errors.New, which would allocate at start-up.
var errRandom error = randomFailed{}

type randomFailed struct{}

func (randomFailed) Error() string { return "random_get failed" }

// randomGet fills b with the host's randomness.
func randomGet(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if wasiRandomGet(unsafe.Pointer(&b[0]), uint32(len(b))) != 0 {
		return errRandom
	}
	return nil
}

// pinholeAlloc returns a buffer of size bytes for the host to fill.
//
//go:wasmexport pinhole_alloc
func pinholeAlloc(size uint32) uint32 {
	if size == 0 {
		size = 1
	}
	if reserveHeap && size > reserveAbove && size <= session.MaxRequestBytes {
		reserve(size) // a larger request is refused unread: nothing to reserve for
	}
	buf := make([]byte, size)
	ptr := uint32(uintptr(unsafe.Pointer(&buf[0])))
	buffers = append(buffers, hostBuffer{ptr, buf})
	return ptr
}

// Requests above reserveAbove bytes get the heap their call will need
// taken from the host in one step, before the buffer is allocated. Go grows
// a wasm module's linear memory a few megabytes at a time as its heap
// grows, and each memory.grow is expensive for the host: V8 (Node 20) runs
// a full collection of the JavaScript heap for each, wazero copies the whole
// memory. One throwaway allocation of reservePerByte times the request,
// collected at once, grows the memory once; the freed pages are then reused
// by the call. reservePerByte is the measured peak heap growth of a cold
// observe per request byte (BENCHMARKS.md, "Flat cost as the store grows").
const (
	reserveAbove   = 1 << 20
	reservePerByte = 16
	reserveMax     = 1 << 30 // a backstop; requests are at most session.MaxRequestBytes
)

// reserveSink keeps the throwaway allocation from being optimised away.
var reserveSink []byte

// reserve makes sure the heap has reservePerByte·size free bytes: when it
// has fewer, it allocates that much at once (one memory.grow), drops it and
// collects, so the pages are free for the call to reuse. A heap already
// that large is left alone.
func reserve(size uint32) {
	n := uint64(size) * reservePerByte
	if n > reserveMax {
		n = reserveMax
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapIdle >= n {
		return
	}
	reserveSink = make([]byte, n)
	reserveSink = nil
	runtime.GC()
}

// hostBuffer is a buffer handed to the host by pinhole_alloc.
type hostBuffer struct {
	ptr uint32
	buf []byte
}

// bufferAt returns the position in buffers of the buffer at ptr, or -1.
func bufferAt(ptr uint32) int {
	for i := range buffers {
		if buffers[i].ptr == ptr {
			return i
		}
	}
	return -1
}

// pinholeFree releases a buffer from pinhole_alloc.
//
//go:wasmexport pinhole_free
func pinholeFree(ptr uint32) {
	if i := bufferAt(ptr); i >= 0 {
		end := len(buffers) - 1
		buffers[i], buffers[end] = buffers[end], hostBuffer{}
		buffers = buffers[:end]
	}
}

// pinholeCall runs one request held in linear memory at ptr (len bytes) and
// returns ptr<<32|len of the response, valid until the next call.
//
//go:wasmexport pinhole_call
func pinholeCall(ptr, length uint32) uint64 {
	var req []byte
	if i := bufferAt(ptr); i >= 0 && int(length) <= len(buffers[i].buf) {
		req = buffers[i].buf[:length]
	} else {
		// Not one of ours: an empty request gets an invalid_request answer
		// instead of a read of memory the module does not own.
		req = nil
	}
	last = sess.Call(req)
	// A reactor runs Go code only inside export calls: yield once so the
	// garbage collector's background work gets to run. Without it, a
	// session observing large states grows its memory without bound.
	runtime.Gosched()
	if len(last) == 0 {
		return 0
	}
	return uint64(uintptr(unsafe.Pointer(&last[0])))<<32 | uint64(len(last))
}
