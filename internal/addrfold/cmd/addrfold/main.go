// Command addrfold folds the constant address arithmetic of a Go-compiled
// WebAssembly module into its loads' and stores' offsets (package
// addrfold), in place. `make wasm` runs it on pinhole.wasm:
//
//	go run ./internal/addrfold/cmd/addrfold build/pinhole.wasm
//
// It prints what it changed, and exits 1, leaving the file as it was, when
// it cannot read the module.
package main

import (
	"fmt"
	"os"

	"github.com/pinholectx/pinhole/internal/addrfold"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: addrfold MODULE.wasm")
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
	out, st, err := addrfold.Fold(in)
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
	fmt.Printf("addrfold %s: %d functions, %d additions folded into loads and stores, %d instructions removed, code %d -> %d bytes\n",
		file, st.Functions, st.Folded, st.Removed, st.BytesIn, st.BytesOut)
	return nil
}
