package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
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
	force := fs.Bool("force", false, "let --out replace a file that exists")
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
	if err := writeDraft(*outPath, text, *force); err != nil {
		return 0, err
	}
	v, _ := jsonval.Parse(text)
	_, err = fmt.Fprintf(stdout, "wrote %s: %s\nreview every \"$comment\", then run: pinhole lint --manifest %s --state %s\n",
		*outPath, summary(v), *outPath, *statePath)
	return exitOK, err
}

// writeDraft writes the draft to file; one that exists is replaced only when
// force is set: it may be a manifest edited since the last draft.
func writeDraft(file string, text []byte, force bool) error {
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if !force {
		flags |= os.O_EXCL
	}
	f, err := os.OpenFile(file, flags, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return usagef("--out: %s exists; pass --force to replace it (edits made to it since would be lost)", file)
	}
	if err != nil {
		return usagef("--out: %v", err)
	}
	_, err = f.Write(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return usagef("--out: %v", err)
	}
	return nil
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
	return fmt.Sprintf("%s, %s, %s, page %s, feedback %s", count(cols, "collection"), count(fields, "field"),
		count(state, "state key"), yesNo(m.Get("page") != nil), yesNo(m.Get("feedback") != nil))
}

// count is n things, "1 field" or "3 fields".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
