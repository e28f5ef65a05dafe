package host

import "github.com/tetratelabs/wazero/experimental"

// WithMemoryReserve chooses how a Session's linear memory grows. On (the
// default), each Session reserves address space for the module's largest
// memory when it starts and memory.grow only extends the usable part: the
// operating system backs pages as they are touched, nothing is copied and
// the resident memory is what the module uses. Off, or where the
// reservation is not available (only Linux has it, on 64-bit platforms),
// memory is a Go slice that wazero reallocates and copies on each growth:
// a cold observe of a store of tens of megabytes then grows it dozens of
// times, copying all of it each time (BENCHMARKS.md, "Flat cost as the
// store grows"). Reserved memory is mapped outside the Go heap: the
// process's GOMEMLIMIT and runtime.MemStats do not see it, so a host that
// bounds its memory through them should turn the reservation off.
func WithMemoryReserve(on bool) Option {
	return func(cfg *config) { cfg.noReserve = !on }
}

// memoryAllocator returns the allocator that reserves memory, or nil when
// the platform has none (wazero's copying default is used).
func (c *config) memoryAllocator() experimental.MemoryAllocator {
	if c.noReserve {
		return nil
	}
	return reservingAllocator
}
