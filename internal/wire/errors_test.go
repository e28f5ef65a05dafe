package wire

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestCodesListsEveryConstant holds Codes to the const block of errors.go:
// a code added there and not to Codes (or the other way) fails here.
func TestCodesListsEveryConstant(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if !strings.HasPrefix(n.Name, "Code") {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Fatalf("%s is not a string literal", n.Name)
				}
				v, _ := strconv.Unquote(lit.Value)
				declared = append(declared, v)
			}
		}
	}
	got := Codes()
	if strings.Join(got, " ") != strings.Join(declared, " ") {
		t.Fatalf("Codes() = %v\nerrors.go declares %v", got, declared)
	}
	word := regexp.MustCompile(`^[a-z]+(_[a-z]+)+$`)
	seen := map[string]bool{}
	for _, c := range got {
		if !word.MatchString(c) || seen[c] {
			t.Errorf("code %q is not a unique snake_case word", c)
		}
		seen[c] = true
	}
}

// TestDecodeError reads error responses the way hosts do: the fields of an
// error, nil for an answer that is not one, internal_error for an error
// envelope that is not JSON.
func TestDecodeError(t *testing.T) {
	for _, tc := range []struct {
		resp string
		want *Error
	}{
		{`{"snapshot":"s1"}`, nil},
		{`{"error":{"code":"unknown_record","message":"m","param":"record"}}`, &Error{Code: CodeUnknownRecord, Message: "m", Param: "record"}},
		{`{"error":{"code":"not_loaded","message":"m"}}`, &Error{Code: CodeNotLoaded, Message: "m"}},
		{`{"error":{"code":`, &Error{Code: CodeInternal, Message: "the module answered with malformed JSON"}},
	} {
		got := DecodeError([]byte(tc.resp))
		if (got == nil) != (tc.want == nil) || (got != nil && *got != *tc.want) {
			t.Errorf("DecodeError(%s) = %+v, want %+v", tc.resp, got, tc.want)
		}
	}
}
