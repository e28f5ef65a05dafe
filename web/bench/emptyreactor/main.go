// Command emptyreactor is the floor of the start-up benchmark: an empty Go
// program built like pinhole.wasm (GOOS=wasip1, -buildmode=c-shared, the
// Makefile's WASM_FLAGS), so its compile, instantiate and _initialize are
// what any Go wasip1 reactor costs before doing anything.
package main

func main() {}
