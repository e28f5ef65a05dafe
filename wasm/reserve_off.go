//go:build wasip1 && pinhole_noreserve

package main

// reserveHeap is off: this build grows memory as Go's heap grows, for the
// benchmark that compares it with the one-step reservation.
const reserveHeap = false
