//go:build !(linux && (amd64 || arm64 || riscv64 || ppc64le || s390x || loong64 || mips64 || mips64le || ppc64))

package host

import "github.com/tetratelabs/wazero/experimental"

// reservingAllocator is nil here: wazero's default, which copies memory on
// growth, is used.
var reservingAllocator experimental.MemoryAllocator
