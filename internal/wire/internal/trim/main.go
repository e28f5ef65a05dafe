// Command trim makes easyjson's generated files encoder-only. The module
// never decodes with easyjson (requests go through internal/jsonval), and the
// decoders import jlexer, encoding/json and, through fmt, os: together about
// 300 KB of the module and ten extra WASI imports. The root easyjson package
// is imported only for a blank interface check, and it imports net/http.
//
// Usage (from go:generate in internal/wire): go run ./internal/trim FILE...
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"strings"
)

func main() {
	for _, name := range os.Args[1:] {
		if err := trim(name); err != nil {
			fmt.Fprintln(os.Stderr, "trim:", err)
			os.Exit(1)
		}
	}
}

// dropped imports: everything only the decoders and the blank checks use.
var dropped = map[string]bool{
	"encoding/json":                     true,
	"github.com/mailru/easyjson":        true,
	"github.com/mailru/easyjson/jlexer": true,
}

func trim(name string) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
	if err != nil {
		return err
	}
	var decls []ast.Decl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if strings.Contains(d.Name.Name, "Decode") || strings.HasPrefix(d.Name.Name, "Unmarshal") {
				continue
			}
		case *ast.GenDecl:
			if d.Tok == token.VAR { // var ( _ *json.RawMessage ... )
				continue
			}
			if d.Tok == token.IMPORT {
				var specs []ast.Spec
				for _, s := range d.Specs {
					if !dropped[strings.Trim(s.(*ast.ImportSpec).Path.Value, `"`)] {
						specs = append(specs, s)
					}
				}
				d.Specs = specs
			}
		}
		decls = append(decls, d)
	}
	f.Decls = decls
	// Comments attached to dropped declarations would otherwise float.
	var keep []*ast.CommentGroup
	for _, c := range f.Comments {
		if c.Pos() < f.Package || strings.Contains(c.Text(), "Marshal") {
			keep = append(keep, c)
		}
	}
	f.Comments = keep
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return err
	}
	return os.WriteFile(name, buf.Bytes(), 0o644)
}
