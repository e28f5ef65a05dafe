// Command datamerge joins the data segments of a Go-compiled WebAssembly
// module (package datamerge), in place. `make wasm` runs it on
// pinhole.wasm after addrfold:
//
//	go run ./internal/datamerge/cmd/datamerge build/pinhole.wasm
//
// It prints what it changed, and exits 1, leaving the file as it was, when
// it cannot read the module.
package main

import (
	"fmt"
	"os"

	"github.com/pinholectx/pinhole/internal/datamerge"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: datamerge MODULE.wasm")
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
	out, st, err := datamerge.Merge(in, datamerge.MaxGap)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	// Written beside it and renamed, so that a failed write leaves the
	// module whole.
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, out, info.Mode().Perm()); err != nil {
		return err
	}
	if err := os.Rename(tmp, file); err != nil {
		os.Remove(tmp)
		return err
	}
	fmt.Printf("datamerge %s: %d data segments -> %d, data section %d -> %d bytes\n",
		file, st.SegmentsIn, st.SegmentsOut, st.BytesIn, st.BytesOut)
	return nil
}
