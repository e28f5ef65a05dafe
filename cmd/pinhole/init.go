package main

import (
	"fmt"
	"io"
	"os"

	"github.com/pinholectx/pinhole/cmd/internal/draft"
	"github.com/pinholectx/pinhole/internal/jsonval"
)

// runInit drafts a manifest from a sample of the store (package draft) and
// prints it, or writes it to --out and prints where.
func runInit(args []string, stdout io.Writer) (int, error) {
	fs := newFlags("init")
	statePath := fs.String("state", "", "a sample state `file` (JSON)")
	outPath := fs.String("out", "", "write the draft to this `file` instead of standard output")
	schema := fs.String("schema", draft.DefaultSchema, "the draft's \"$schema\" (\"\" leaves it out)")
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if fs.NArg() > 0 {
		return 0, usagef("unexpected argument %q", fs.Arg(0))
	}
	if *statePath == "" {
		return 0, usagef("--state is required")
	}
	// Read at most one byte past the bound, so that a stream (--state
	// /dev/stdin) is bounded like a file; draft.FromJSON refuses the rest.
	f, err := os.Open(*statePath)
	if err != nil {
		return 0, usagef("--state: %v", err)
	}
	sample, err := io.ReadAll(io.LimitReader(f, draft.MaxSampleBytes+1))
	f.Close()
	if err != nil {
		return 0, usagef("--state: %v", err)
	}
	text, e := draft.FromJSON(sample, draft.Options{Schema: *schema})
	if e != nil {
		return 0, usagef("--state %s: %s", *statePath, e.Message)
	}
	if *outPath == "" {
		_, err := stdout.Write(text)
		return exitOK, err
	}
	if err := os.WriteFile(*outPath, text, 0o644); err != nil {
		return 0, usagef("--out: %v", err)
	}
	v, _ := jsonval.Parse(text)
	_, err = fmt.Fprintf(stdout, "wrote %s: %s\nreview every \"$comment\", then run: pinhole lint --manifest %s --state %s\n",
		*outPath, summary(v), *outPath, *statePath)
	return exitOK, err
}

// summary counts what a draft declares.
func summary(m *jsonval.Value) string {
	cols, fields := 0, 0
	if c := m.Get("collections"); c != nil {
		cols = len(c.Items)
		for _, col := range c.Items {
			for _, k := range col.Get("fields").Keys {
				if k != "$comment" {
					fields++
				}
			}
		}
	}
	state := 0
	if s := m.Get("state"); s != nil {
		state = len(s.Keys) - 1 // its comment
	}
	return fmt.Sprintf("%d collections, %d fields, %d state keys, page %s, feedback %s",
		cols, fields, state, yesNo(m.Get("page") != nil), yesNo(m.Get("feedback") != nil))
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
