// Package docs holds the project's documents (protocol.md,
// context-model.md) and the tests that keep every Markdown file honest:
// links and anchors resolve, nothing cites a document outside the
// repository, and the code blocks that claim to work run.
package docs

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// root is the repository's root, the parent of this package.
func root(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// files lists the repository's files as git sees them (tracked, or new and
// not ignored), so build output and node_modules are never read.
func files(t *testing.T) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard", "-z")
	cmd.Dir = root(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	var fs []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(root(t), f)); err == nil { // deleted but not yet committed
			fs = append(fs, f)
		}
	}
	if len(fs) < 50 {
		t.Fatalf("git lists %d files: not the repository", len(fs))
	}
	return fs
}

// block is one fenced code block of a Markdown file.
type block struct {
	lang   string
	line   int    // of the opening fence, 1-based
	marker string // the HTML comment on the line before, if any
	code   string
}

var fence = regexp.MustCompile("^```(\\w*)\\s*$")

// parse returns a Markdown file's code blocks and its lines outside them.
func parse(text string) (blocks []block, prose []string) {
	lines := strings.Split(text, "\n")
	prevText := ""
	for i := 0; i < len(lines); i++ {
		m := fence.FindStringSubmatch(lines[i])
		if m == nil {
			prose = append(prose, lines[i])
			if strings.TrimSpace(lines[i]) != "" {
				prevText = strings.TrimSpace(lines[i])
			}
			continue
		}
		j := i + 1
		for j < len(lines) && lines[j] != "```" {
			j++
		}
		b := block{lang: m[1], line: i + 1, code: strings.Join(lines[i+1:min(j, len(lines))], "\n") + "\n"}
		if strings.HasPrefix(prevText, "<!--") && strings.HasSuffix(prevText, "-->") {
			b.marker = prevText
		}
		blocks = append(blocks, b)
		prose = append(prose, "") // keep line count roughly; fences are not prose
		prevText = ""
		i = j
	}
	return blocks, prose
}

var (
	heading   = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	slugDrop  = regexp.MustCompile(`[^\p{L}\p{N}\s_-]`)
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	docsRef   = regexp.MustCompile(`docs/([a-z0-9-]+\.md)(#[a-z0-9-]+)?`)
	outsiders = regexp.MustCompile(`\bDESIGN\b|\.\./` + `shared|spec/context` + `-model`)
)

// anchors returns the anchors GitHub gives a Markdown file's headings.
func anchors(text string) map[string]bool {
	_, prose := parse(text)
	seen := map[string]int{}
	out := map[string]bool{}
	for _, l := range prose {
		m := heading.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		s := strings.ToLower(slugDrop.ReplaceAllString(m[1], ""))
		s = strings.ReplaceAll(s, " ", "-")
		if n := seen[s]; n > 0 {
			out[s+"-"+strconv.Itoa(n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

func TestAnchors(t *testing.T) {
	got := anchors("# The module's ABI\n## Manifest format 1\n```\n# not a heading\n```\n## `x-pinhole-token`\n## Bounds\n## Bounds\n")
	for _, want := range []string{"the-modules-abi", "manifest-format-1", "x-pinhole-token", "bounds", "bounds-1"} {
		if !got[want] {
			t.Errorf("anchor %q missing from %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a line in a code block became an anchor")
	}
}

// TestLinks checks every relative link of every Markdown file, and every
// docs/NAME.md#anchor cited anywhere (Go and JS comments too), resolves.
func TestLinks(t *testing.T) {
	r := root(t)
	anchorCache := map[string]map[string]bool{}
	anchorsOf := func(path string) (map[string]bool, bool) {
		if a, ok := anchorCache[path]; ok {
			return a, a != nil
		}
		b, err := os.ReadFile(filepath.Join(r, path))
		if err != nil {
			anchorCache[path] = nil
			return nil, false
		}
		anchorCache[path] = anchors(string(b))
		return anchorCache[path], true
	}
	checked := 0
	for _, f := range files(t) {
		b, err := os.ReadFile(filepath.Join(r, f))
		if err != nil || bytes.IndexByte(b, 0) >= 0 {
			continue
		}
		text := string(b)
		if strings.HasSuffix(f, ".md") {
			_, prose := parse(text)
			for n, l := range prose {
				for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
					target := m[1]
					if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
						continue
					}
					path, frag, _ := strings.Cut(target, "#")
					if path == "" {
						path = f
					} else {
						path = filepath.ToSlash(filepath.Join(filepath.Dir(f), path))
					}
					checked++
					if _, err := os.Stat(filepath.Join(r, path)); err != nil {
						t.Errorf("%s:%d: link %s: no %s", f, n+1, target, path)
						continue
					}
					if frag != "" && strings.HasSuffix(path, ".md") {
						if a, _ := anchorsOf(path); !a[frag] {
							t.Errorf("%s:%d: link %s: %s has no heading #%s", f, n+1, target, path, frag)
						}
					}
				}
			}
		}
		for _, m := range docsRef.FindAllStringSubmatch(text, -1) {
			checked++
			a, ok := anchorsOf("docs/" + m[1])
			if !ok {
				t.Errorf("%s cites docs/%s, which does not exist", f, m[1])
			} else if m[2] != "" && !a[m[2][1:]] {
				t.Errorf("%s cites docs/%s%s: no such heading", f, m[1], m[2])
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d links checked: the scan is broken", checked)
	}
}

// TestNoOutsideDocuments checks no file cites the design notes the project
// started from, which are not in the repository: docs/ replaces them.
func TestNoOutsideDocuments(t *testing.T) {
	r := root(t)
	for _, f := range files(t) {
		b, err := os.ReadFile(filepath.Join(r, f))
		if err != nil || bytes.IndexByte(b, 0) >= 0 {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for n := 1; sc.Scan(); n++ {
			if m := outsiders.FindString(sc.Text()); m != "" {
				t.Errorf("%s:%d cites %q, which is not in the repository: cite docs/ instead", f, n, m)
			}
		}
	}
}

func TestOutsidersPattern(t *testing.T) {
	for _, s := range []string{"see DESIG" + "N §4", "the " + "DESIGN envelope", "../" + "shared/DESIGN.md", "spec/context" + "-model.txt"} {
		if !outsiders.MatchString(s) {
			t.Errorf("%q is not caught", s)
		}
	}
	for _, s := range []string{"design decisions", "docs/context-model.md", "DESIGNER"} {
		if outsiders.MatchString(s) {
			t.Errorf("%q is caught", s)
		}
	}
}
