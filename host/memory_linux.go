//go:build linux && (amd64 || arm64 || riscv64 || ppc64le || s390x || loong64 || mips64 || mips64le || ppc64)

package host

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// reservingAllocator maps each memory's maximum size as anonymous,
// private, unreserved pages: address space only, backed by the kernel on
// first touch and zero until written, as new wasm pages must be.
var reservingAllocator experimental.MemoryAllocator = experimental.MemoryAllocatorFunc(
	func(capacity, max uint64) experimental.LinearMemory {
		if max == 0 || max > 1<<32 {
			return &copyingMemory{}
		}
		b, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE,
			syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_NORESERVE)
		if err != nil { // no address space left: copy on growth instead
			return &copyingMemory{}
		}
		return &mappedMemory{b: b}
	})

// mappedMemory is one reservation; growing it moves nothing.
type mappedMemory struct{ b []byte }

// Reallocate implements experimental.LinearMemory.
func (m *mappedMemory) Reallocate(size uint64) []byte {
	if m.b == nil || size > uint64(len(m.b)) {
		return nil
	}
	return m.b[:size:size]
}

// Free implements experimental.LinearMemory.
func (m *mappedMemory) Free() {
	if m.b != nil {
		syscall.Munmap(m.b)
		m.b = nil
	}
}
