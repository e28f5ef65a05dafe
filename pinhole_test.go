package pinhole_test

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/pinholectx/pinhole"
	"github.com/pinholectx/pinhole/internal/wire"
)

// TestCodesMirrorWire: the package exports every error code of the one
// list in internal/wire, and no other.
func TestCodesMirrorWire(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "pinhole.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var exported []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		for i, name := range vs.Names {
			if !strings.HasPrefix(name.Name, "Code") {
				continue
			}
			sel, ok := vs.Values[i].(*ast.SelectorExpr)
			if !ok || sel.X.(*ast.Ident).Name != "wire" || sel.Sel.Name != name.Name {
				t.Errorf("%s is not wire.%s", name.Name, name.Name)
			}
			exported = append(exported, name.Name)
		}
		return true
	})
	want := map[string]string{}
	for _, c := range wire.Codes() {
		// invalid_request -> CodeInvalidRequest; internal_error -> CodeInternal
		name := "Code"
		for _, w := range strings.Split(strings.TrimSuffix(c, "_error"), "_") {
			name += strings.ToUpper(w[:1]) + w[1:]
		}
		want[name] = c
	}
	var wantNames []string
	for n := range want {
		wantNames = append(wantNames, n)
	}
	sort.Strings(wantNames)
	sort.Strings(exported)
	if strings.Join(exported, " ") != strings.Join(wantNames, " ") {
		t.Fatalf("exported %v\nwant %v", exported, wantNames)
	}
	if pinhole.CodeInternal != "internal_error" || pinhole.CodeInvalidInput != "invalid_input" {
		t.Fatal("codes do not carry wire's values")
	}
}

func TestRandSource(t *testing.T) {
	m := []byte(`{"pinhole":1}`)
	s := pinhole.NewSession(pinhole.WithRandSource(iotest.ErrReader(errors.New("no entropy"))))
	_, err := s.Load(m, "")
	var pe *pinhole.Error
	if !errors.As(err, &pe) || pe.Code != pinhole.CodeInvalidRequest || pe.Param != "key" {
		t.Fatalf("a load without key and without randomness: %v", err)
	}
	if _, err := s.Load(m, "a key of sixteen bytes"); err != nil {
		t.Fatalf("a load with a key: %v", err)
	}
	// A source that runs short is refused too.
	s = pinhole.NewSession(pinhole.WithRandSource(bytes.NewReader(make([]byte, 8))))
	if _, err := s.Load(m, ""); err == nil {
		t.Fatal("a short random source filled a key")
	}
	s = pinhole.NewSession(pinhole.WithRandSource(bytes.NewReader(make([]byte, 32))))
	if _, err := s.Load(m, ""); err != nil {
		t.Fatalf("a 32-byte source: %v", err)
	}
}

func TestHelpers(t *testing.T) {
	s := pinhole.NewSession()
	out, err := s.Describe([]byte(`[1]`))
	var pe *pinhole.Error
	if !errors.As(err, &pe) || pe.Code != pinhole.CodeInvalidRequest || pinhole.ResponseError(out) == nil {
		t.Fatalf("Describe([1]) = %s, %v", out, err)
	}
	if _, err := s.Describe(nil); !errors.As(err, &pe) || pe.Code != pinhole.CodeNotLoaded {
		t.Fatalf("describe before load: %v", err)
	}
	if _, err := s.After("s1"); !errors.As(err, &pe) || pe.Code != pinhole.CodeNotLoaded {
		t.Fatalf("after before load: %v", err)
	}
	if _, err := s.Prepare(pinhole.PrepareRequest{Capability: "x"}); !errors.As(err, &pe) || pe.Code != pinhole.CodeNotLoaded {
		t.Fatalf("prepare before load: %v", err)
	}
	if _, err := s.Load([]byte(`{"pinhole":2}`), ""); !errors.As(err, &pe) || pe.Code != pinhole.CodeInvalidManifest || pe.Param != "/pinhole" {
		t.Fatalf("bad manifest: %v", err)
	}
	if err := pinhole.ResponseError([]byte(`{"snapshot":"s1"}`)); err != nil {
		t.Fatalf("ResponseError of an answer: %v", err)
	}
}

// TestVectors: the native entry point answers every conformance vector
// byte for byte, as the module does.
func TestVectors(t *testing.T) {
	files, _ := filepath.Glob("testdata/vectors/*.in.jsonl")
	if len(files) == 0 {
		t.Fatal("no vectors")
	}
	for _, in := range files {
		reqs, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(in, ".in.jsonl") + ".out.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		s := pinhole.NewSession()
		wl := strings.Split(string(want), "\n")
		for i, req := range strings.Split(strings.TrimSuffix(string(reqs), "\n"), "\n") {
			if got := string(s.Call([]byte(req))); i >= len(wl) || got != wl[i] {
				t.Fatalf("%s line %d differs", in, i+1)
			}
		}
	}
}
