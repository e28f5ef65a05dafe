package host

// copyingMemory is the fallback of the reserving allocator when the
// reservation fails: a Go slice grown by copying, as wazero's default.
type copyingMemory struct{ b []byte }

// Reallocate implements experimental.LinearMemory.
func (m *copyingMemory) Reallocate(size uint64) []byte {
	if size <= uint64(cap(m.b)) {
		m.b = m.b[:size]
	} else {
		m.b = append(m.b[:cap(m.b)], make([]byte, size-uint64(cap(m.b)))...)
	}
	return m.b
}

// Free implements experimental.LinearMemory.
func (m *copyingMemory) Free() { m.b = nil }
