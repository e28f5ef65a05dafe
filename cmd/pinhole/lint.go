package main

import (
	"fmt"
	"io"
	"os"

	"github.com/pinholectx/pinhole/cmd/internal/lint"
	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
)

func runLint(args []string, stdout io.Writer) (int, error) {
	fs := newFlags("lint")
	manifestPath := fs.String("manifest", "", "manifest `file` (JSON)")
	statePath := fs.String("state", "", "a sample state `file` (JSON) whose values are checked too")
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("unexpected argument %q", fs.Arg(0))
	}
	if *manifestPath == "" {
		return 0, usagef("--manifest is required")
	}
	man, err := os.ReadFile(*manifestPath)
	if err != nil {
		return 0, usagef("--manifest: %v", err)
	}
	plan, e := manifest.Parse(man)
	if e != nil {
		return exitUsage, manifestError(stdout, e)
	}
	var state *jsonval.Value
	if *statePath != "" {
		if _, state, err = readJSON("state", *statePath); err != nil {
			return 0, err
		}
	}
	found := append(lint.Plan(plan, state), lint.Paths(plan, state)...)
	for _, f := range found {
		if _, err := fmt.Fprintf(stdout, "%s: %s\n", f.At, f.Message); err != nil {
			return 0, err
		}
	}
	if len(found) > 0 {
		return exitFailed, nil
	}
	return exitOK, nil
}
