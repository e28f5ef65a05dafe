// Command wasm is pinhole.wasm: a GOOS=wasip1 reactor
// (-buildmode=c-shared) whose exports are a thin ABI over session.Session
// (pinhole_alloc, pinhole_call, pinhole_free). The ABI itself is in
// abi_wasip1.go, the only file of the module that touches unsafe; on other
// platforms this package builds to a program that does nothing, so
// `go build ./...` works everywhere.
//
// Build it with `make wasm`.
package main

func main() {}
