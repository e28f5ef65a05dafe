//go:build wasip1 && !pinhole_noreserve

package main

// reserveHeap turns on the one-step heap reservation for large requests
// (see reserve). Building with -tags pinhole_noreserve turns it off, for
// the benchmark that compares the two.
const reserveHeap = true
