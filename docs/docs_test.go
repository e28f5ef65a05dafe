// Package docs holds the project's documents (protocol.md,
// context-model.md) and the tests that keep every Markdown file honest:
// links and anchors resolve, nothing cites a document outside the
// repository, the code blocks that claim to work run, and README.md's
// table of Make targets names exactly the targets the Makefiles define.
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

// skipDirs are directories of build output, installed dependencies and
// caches: not the repository's own text (the .gitignore entries).
var (
	skipDirs = map[string]bool{"build": true, "bin": true, "js/types": true, "testdata/fuzz-cache": true}
	// skipAnywhere are such directories at any depth (the example apps').
	skipAnywhere = map[string]bool{".git": true, "node_modules": true, "dist": true, "test-results": true, ".wrangler": true}
)

// files lists the repository's own files by walking the tree (not git, so
// a copy without .git checks the same), leaving out skipDirs and any
// dist/ and test-results/ of the example apps.
func files(t *testing.T) []string {
	t.Helper()
	r := root(t)
	var fs []string
	err := filepath.WalkDir(r, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(strings.TrimPrefix(p, r), string(filepath.Separator)))
		if d.IsDir() {
			if skipDirs[rel] || skipAnywhere[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if info, err := d.Info(); err == nil && d.Type().IsRegular() && info.Size() < 4<<20 {
			fs = append(fs, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) < 50 {
		t.Fatalf("found %d files: not the repository", len(fs))
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
		for k := i; k <= j && k < len(lines); k++ {
			prose = append(prose, "") // a block is not prose; keep line numbers
		}
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

// repoBlob is where the repository's files are on the web: js/README.md,
// which npm ships inside the package where a relative link to ../docs
// leads nowhere, links to docs that way. TestLinks checks such links as it
// checks relative ones, against this checkout.
const repoBlob = "https://github.com/pinholectx/pinhole/blob/main/"

// TestLinks checks every relative link of every Markdown file, every link
// into the repository on the web (repoBlob), and every docs/NAME.md#anchor
// cited anywhere (Go and JS comments too), resolves.
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
					inRepo, onWeb := strings.CutPrefix(target, repoBlob)
					if !onWeb && (strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:")) {
						continue
					}
					path, frag, _ := strings.Cut(target, "#")
					switch {
					case onWeb:
						path, frag, _ = strings.Cut(inRepo, "#")
					case path == "":
						path = f
					default:
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
	for _, s := range []string{"see DESIG" + "N §4", "the DESI" + "GN envelope", "../" + "shared/DESI" + "GN.md", "spec/context" + "-model.txt"} {
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

// runnableLangs are the languages whose blocks claim to work: each is run
// by a test (js by js/test/docs.test.js; sh and go here) unless marked
// "<!-- not run: reason -->". A block in another spelling of these
// languages would escape the rule, so those spellings are refused.
var (
	runnableLangs = map[string]bool{"js": true, "sh": true, "go": true}
	otherSpelling = map[string]string{"bash": "sh", "shell": "sh", "console": "sh", "javascript": "js", "mjs": "js", "ts": "js", "typescript": "js", "golang": "go"}
)

// runnable returns the blocks of file in lang that are to be run.
func runnable(t *testing.T, file, lang string) []block {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root(t), file))
	if err != nil {
		t.Fatal(err)
	}
	blocks, _ := parse(string(b))
	var out []block
	for _, bl := range blocks {
		if to, ok := otherSpelling[bl.lang]; ok {
			t.Errorf("%s:%d: write ```%s, not ```%s, so the block is run", file, bl.line, to, bl.lang)
		}
		if strings.HasPrefix(bl.marker, "<!-- not run") {
			if !regexp.MustCompile(`^<!-- not run: \S.*-->$`).MatchString(bl.marker) {
				t.Errorf("%s:%d: a block not run says why: <!-- not run: reason -->", file, bl.line)
			}
			continue
		}
		if bl.lang == lang && runnableLangs[lang] {
			out = append(out, bl)
		}
	}
	return out
}

// docFiles are the documents whose code blocks must run.
var docFiles = []string{"README.md", "js/README.md"}

// goVersion is the go line of the repository's go.mod.
func goVersion(t *testing.T, root string) string {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "go "); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatal("go.mod has no go line")
	return ""
}

// cleanEnv is the environment for commands a block runs: make's own
// variables of an enclosing make are dropped, so `make` in a block is a
// fresh one.
func cleanEnv() []string {
	var env []string
	for _, e := range os.Environ() {
		if k, _, _ := strings.Cut(e, "="); k == "MAKEFLAGS" || k == "MFLAGS" || k == "MAKELEVEL" || k == "MAKEOVERRIDES" {
			continue
		}
		env = append(env, e)
	}
	return env
}

// TestShellBlocks runs every sh block with bash -euo pipefail from the
// repository's root: the project's own commands (make targets, the CLI)
// as a reader would type them.
func TestShellBlocks(t *testing.T) {
	ran := 0
	for _, f := range docFiles {
		for _, bl := range runnable(t, f, "sh") {
			ran++
			t.Run(f+":"+strconv.Itoa(bl.line), func(t *testing.T) {
				cmd := exec.Command("bash", "-euo", "pipefail", "-c", bl.code)
				cmd.Dir = root(t)
				cmd.Env = cleanEnv()
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%v\n%s\n--- output:\n%s", err, bl.code, out)
				}
			})
		}
	}
	if ran == 0 {
		t.Fatal("no sh block ran: the README lost its CLI lines, or the parser broke")
	}
}

// TestGoBlocks runs every go block as a newcomer would: as the main
// package of a module of its own, outside the repository, whose go.mod
// requires this module through a replace to the clone (as the README says),
// with the clone's path as its argument. A block that is not a whole
// program fails.
func TestGoBlocks(t *testing.T) {
	ran := 0
	for _, f := range docFiles {
		for _, bl := range runnable(t, f, "go") {
			ran++
			t.Run(f+":"+strconv.Itoa(bl.line), func(t *testing.T) {
				r := root(t)
				dir := t.TempDir()
				mod := "module example.com/doctest\n\ngo " + goVersion(t, r) + "\n\nrequire github.com/pinholectx/pinhole v0.0.0\n\n" +
					"replace github.com/pinholectx/pinhole => " + strconv.Quote(r) + "\n"
				if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(bl.code), 0o644); err != nil {
					t.Fatal(err)
				}
				for _, args := range [][]string{{"mod", "tidy"}, {"run", ".", r}} {
					cmd := exec.Command("go", args...)
					cmd.Dir = dir
					cmd.Env = append(cleanEnv(), "GOWORK=off")
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("go %s: %v\n--- output:\n%s", strings.Join(args, " "), err, out)
					}
				}
			})
		}
	}
	if ran == 0 {
		t.Fatal("no go block ran: the README lost its Go example, or the parser broke")
	}
}

// makeTarget matches a rule's target at the start of a Makefile line: a
// name, then one colon (not := or ::=, which assign).
var makeTarget = regexp.MustCompile(`^([a-z][a-z0-9-]*):(?:[^=]|$)`)

// codeName matches a name in backquotes, as the table's first column
// writes targets.
var codeName = regexp.MustCompile("`([a-z][a-z0-9-]*)`")

// TestMakeTargets checks that README.md's "Make targets" table names every
// target of the Makefile and the fragments it includes, and no target that
// is not there.
func TestMakeTargets(t *testing.T) {
	r := root(t)
	targets := map[string]bool{}
	for _, f := range files(t) {
		if f != "Makefile" && !strings.HasSuffix(f, ".mk") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(r, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if m := makeTarget.FindStringSubmatch(line); m != nil {
				targets[m[1]] = true
			}
		}
	}
	if !targets["test"] || !targets["demo"] {
		t.Fatalf("found no test or demo target among %d targets: the pattern is wrong", len(targets))
	}
	readme, err := os.ReadFile(filepath.Join(r, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Make targets\n")
	if !ok {
		t.Fatal(`README.md has no "## Make targets" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	named := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		if cells := strings.Split(line, "|"); len(cells) > 2 && strings.HasPrefix(line, "| `") {
			for _, m := range codeName.FindAllStringSubmatch(cells[1], -1) {
				named[m[1]] = true
			}
		}
	}
	for tg := range targets {
		if !named[tg] {
			t.Errorf("make %s is not in README.md's Make targets table", tg)
		}
	}
	for tg := range named {
		if !targets[tg] {
			t.Errorf("README.md's Make targets table names %s, which no Makefile defines", tg)
		}
	}
}
