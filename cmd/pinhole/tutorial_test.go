package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// tutorial is the walk-through whose commands this test runs.
const tutorial = "../../docs/first-manifest.md"

// block is a fenced block of the tutorial marked for this test by an HTML
// comment on the line before it: <!-- test: run -->, <!-- test: output -->,
// <!-- test: excerpt [FILE] --> or <!-- test: file NAME -->.
type block struct {
	kind, arg, body string
}

var marked = regexp.MustCompile("(?m)^<!-- test: (run|output|excerpt|file) ?([^ ]*) -->\n```[a-z]*\n((?s:.*?))\n```$")

// TestTutorial runs the tutorial in a fresh directory, block by block: its
// commands (cp from the repository, pinhole through the CLI's own run),
// checks what they print against the blocks it shows as their output or
// an excerpt of it, and writes the files it shows. Each command must exit
// 0.
func TestTutorial(t *testing.T) {
	doc, err := os.ReadFile(tutorial)
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []block
	count := map[string]int{}
	for _, m := range marked.FindAllStringSubmatch(string(doc), -1) {
		blocks = append(blocks, block{m[1], m[2], m[3]})
		count[m[1]]++
	}
	if count["run"] < 4 || count["output"] < 1 || count["excerpt"] < 2 || count["file"] < 1 {
		t.Fatalf("the tutorial marks too few blocks: %v", count)
	}
	t.Chdir(t.TempDir())
	const clone = "/path/to/pinhole/"
	var last string // the standard output of the last command
	for i, b := range blocks {
		switch b.kind {
		case "run":
			for _, line := range strings.Split(b.body, "\n") {
				args := strings.Fields(line)
				switch {
				case len(args) == 0:
				case args[0] == "cp" && len(args) == 3:
					// The tutorial writes the clone's place as /path/to/pinhole.
					data, err := os.ReadFile(filepath.Join(root, strings.TrimPrefix(args[1], clone)))
					if err != nil {
						t.Fatalf("%s: %v", line, err)
					}
					if err := os.WriteFile(args[2], data, 0o644); err != nil {
						t.Fatal(err)
					}
					last = ""
				case args[0] == "pinhole":
					code, stdout, stderr := runCLI(args[1:]...)
					if code != 0 || stderr != "" {
						t.Fatalf("%s: exit %d\nstdout: %.500s\nstderr: %s", line, code, stdout, stderr)
					}
					last = stdout
				default:
					t.Fatalf("block %d: %q is neither cp nor pinhole", i, line)
				}
			}
		case "output":
			if last != b.body+"\n" {
				t.Errorf("block %d: the command printed\n%s\nthe tutorial shows\n%s", i, last, b.body)
			}
		case "excerpt":
			text := last
			if b.arg != "" {
				data, err := os.ReadFile(b.arg)
				if err != nil {
					t.Fatal(err)
				}
				text = string(data)
			}
			if missing := excerptOf(b.body, text); missing != "" {
				t.Errorf("block %d: %q is not in %s (in this order):\n%.3000s", i, missing, orOutput(b.arg), text)
			}
		case "file":
			if err := os.WriteFile(b.arg, []byte(b.body+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// excerptOf returns the first line of excerpt that is not a line of text
// after the lines before it matched, or "" when every line is.
func excerptOf(excerpt, text string) string {
	lines := strings.Split(text, "\n")
	at := 0
next:
	for _, want := range strings.Split(excerpt, "\n") {
		for ; at < len(lines); at++ {
			if lines[at] == want {
				at++
				continue next
			}
		}
		return want
	}
	return ""
}

func orOutput(file string) string {
	if file == "" {
		return "the output"
	}
	return file
}
