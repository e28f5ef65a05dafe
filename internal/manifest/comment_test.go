package manifest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/wire"
)

// commentBase is a manifest with every object that takes a "$comment":
// each %s is replaced by a comment member (with its trailing comma) or by
// nothing.
const commentBase = `{%s"pinhole":1,"limits":{%s"defaultLimit":8},
 "page":{%s"route":"/r","params":{%s"from":"/q","allow":["a"]}},
 "regions":[{%s"id":"r","description":"R"}],
 "collections":[{%s"region":"r","from":"/items","id":"/id","fields":{%s"name":{%s"from":"/name"}}}],
 "state":{%s"filter":"/filter"},
 "feedback":{%s"from":"/toasts","text":"/text"},
 "capabilities":[{%s"name":"c","description":"Do it","scope":"page","region":"r",
   "unavailable":[{%s"when":{"path":"/x","eq":1},"reason":"No"}]}]}`

// at are the manifest places of the %s in commentBase, in order.
var commentPlaces = []string{"", "/limits", "/page", "/page/params", "/regions/0", "/collections/0",
	"/collections/0/fields", "/collections/0/fields/name", "/state", "/feedback", "/capabilities/0",
	"/capabilities/0/unavailable/0"}

func commented(at, member string) string {
	args := make([]any, len(commentPlaces))
	for i, p := range commentPlaces {
		args[i] = ""
		if p == at {
			args[i] = member
		}
	}
	return sprintf(commentBase, args...)
}

func sprintf(format string, args ...any) string {
	for _, a := range args {
		format = strings.Replace(format, "%s", a.(string), 1)
	}
	return format
}

// TestComments: "$comment" is accepted, as a string, on every manifest
// object that names it, and changes nothing the plan holds; in the state
// and fields maps it is a comment, not a name. Anything but a string, an
// empty or overlong one, or one with control characters is an error at the
// comment.
func TestComments(t *testing.T) {
	plain, e := Parse([]byte(commented("-", "")))
	if e != nil {
		t.Fatalf("base manifest: %v", e)
	}
	for _, at := range commentPlaces {
		p, e := Parse([]byte(commented(at, `"$comment":"why this is here",`)))
		if e != nil {
			t.Errorf("comment at %q rejected: %v", at, e)
			continue
		}
		if !reflect.DeepEqual(p, plain) {
			t.Errorf("comment at %q changed the plan: state %d, fields %d", at, len(p.State), len(p.Collections[0].Fields))
		}
		for _, bad := range []string{`1`, `null`, `["a"]`, `{"a":1}`, `""`, `"line\nbreak"`, `"` + strings.Repeat("x", maxCommentChars+1) + `"`} {
			_, e := Parse([]byte(commented(at, `"$comment":`+bad+`,`)))
			want := strings.TrimSuffix(at, "/") + "/$comment"
			if e == nil || e.Code != wire.CodeInvalidManifest || e.Param != want {
				t.Errorf("comment %.20s at %q: got %v, want invalid_manifest at %s", bad, at, e, want)
			}
		}
	}
}

// TestCommentsNotEverywhere: conditions and input schemas, whose members
// reach the agent or decide availability, take no comment; an input
// property may still be named "$comment" (its schema is checked as one).
func TestCommentsNotEverywhere(t *testing.T) {
	for _, tc := range []struct{ manifest, at string }{
		{`{"pinhole":1,"regions":[{"id":"r","activeWhen":{"$comment":"x","path":"/a","eq":1}}]}`, "/regions/0/activeWhen/$comment"},
		{withInput(`{"type":"object","$comment":"x"}`), "/capabilities/0/input/$comment"},
		{withInput(`{"type":"object","properties":{"p":{"type":"string","$comment":"x"}}}`), "/capabilities/0/input/properties/p/$comment"},
	} {
		_, e := Parse([]byte(tc.manifest))
		if e == nil || e.Param != tc.at {
			t.Errorf("%s: got %v, want invalid_manifest at %s", tc.manifest, e, tc.at)
		}
	}
	if _, e := Parse([]byte(withInput(`{"type":"object","properties":{"$comment":{"type":"string"}}}`))); e != nil {
		t.Errorf("an input property named $comment: %v", e)
	}
}

// TestSchemaMember: the top level takes "$schema", a string; nothing else
// does.
func TestSchemaMember(t *testing.T) {
	ok := `{"$schema":"./node_modules/@pinholectx/pinhole/manifest.schema.json","pinhole":1}`
	if _, e := Parse([]byte(ok)); e != nil {
		t.Fatalf("top-level $schema rejected: %v", e)
	}
	for _, tc := range []struct{ manifest, at string }{
		{`{"$schema":1,"pinhole":1}`, "/$schema"},
		{`{"$schema":"","pinhole":1}`, "/$schema"},
		{`{"pinhole":1,"regions":[{"$schema":"x","id":"r"}]}`, "/regions/0/$schema"},
		{`{"pinhole":1,"page":{"$schema":"x"}}`, "/page/$schema"},
	} {
		_, e := Parse([]byte(tc.manifest))
		if e == nil || e.Code != wire.CodeInvalidManifest || e.Param != tc.at {
			t.Errorf("%s: got %v, want invalid_manifest at %s", tc.manifest, e, tc.at)
		}
	}
}
