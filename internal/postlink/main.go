// Command postlink rewrites a Go-compiled WebAssembly module after
// linking, in place: it folds the module's constant address arithmetic
// into its loads and stores (package addrfold), then joins its data
// segments (package datamerge). Neither pass changes what the module does.
// `make wasm` runs it on pinhole.wasm, and the Worker's build on app.wasm:
//
//	go run ./internal/postlink build/pinhole.wasm
//
// It prints what each pass changed, and exits 1, leaving the file as it
// was, when it cannot read the module.
package main

import (
	"fmt"
	"os"

	"github.com/pinholectx/pinhole/internal/addrfold"
	"github.com/pinholectx/pinhole/internal/datamerge"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: postlink MODULE.wasm")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(file string) error {
	info, err := os.Stat(file)
	if err != nil {
		return err
	}
	in, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	folded, fs, err := addrfold.Fold(in)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	out, ms, err := datamerge.Merge(folded, datamerge.MaxGap)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	// Written beside it and renamed, so that a failed write leaves the
	// module whole.
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, out, info.Mode().Perm()); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, file); err != nil {
		os.Remove(tmp)
		return err
	}
	fmt.Printf("postlink %s: addrfold: %d functions, %d additions folded into loads and stores, %d instructions removed, code %d -> %d bytes; datamerge: %d data segments -> %d, data section %d -> %d bytes\n",
		file, fs.Functions, fs.Folded, fs.Removed, fs.BytesIn, fs.BytesOut, ms.SegmentsIn, ms.SegmentsOut, ms.BytesIn, ms.BytesOut)
	return nil
}
