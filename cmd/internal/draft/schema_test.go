package draft

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
)

// The JSON Schema of manifest format 1 that the npm package ships, checked
// here by a small validator of the draft 2020-12 keywords it uses. The
// validator refuses any keyword it does not implement, so the schema can
// only say what is tested.

const schemaFile = "../../../js/manifest.schema.json"

type validator struct {
	root *jsonval.Value
	t    *testing.T
}

// annotations are keywords that do not validate.
var annotations = map[string]bool{"$schema": true, "title": true, "description": true, "default": true, "$defs": true}

// valid reports whether v is valid against schema s.
func (x *validator) valid(s, v *jsonval.Value) bool {
	if s.Kind == jsonval.Bool {
		return s.B
	}
	if s.Kind != jsonval.Object {
		x.t.Fatalf("a schema that is not an object or a boolean: %s", jsonval.Marshal(s))
	}
	ok := true
	for i, k := range s.Keys {
		a := s.Vals[i]
		switch {
		case annotations[k]:
		case k == "$ref":
			if !strings.HasPrefix(a.S, "#/") {
				x.t.Fatalf("$ref %s: only local references", a.S)
			}
			p, err := jsonval.ParsePointer(a.S[1:])
			target := p.Resolve(x.root)
			if err != nil || target == nil {
				x.t.Fatalf("$ref %s resolves to nothing", a.S)
			}
			ok = x.valid(target, v) && ok
		case k == "type":
			ok = typeOf(a.S, v) && ok
		case k == "const":
			ok = jsonval.Equal(a, v) && ok
		case k == "enum":
			in := false
			for _, e := range a.Items {
				in = in || jsonval.Equal(e, v)
			}
			ok = in && ok
		case k == "oneOf":
			n := 0
			for _, sub := range a.Items {
				if x.valid(sub, v) {
					n++
				}
			}
			ok = n == 1 && ok
		case k == "pattern":
			if v.Kind == jsonval.String {
				ok = regexp.MustCompile(a.S).MatchString(v.S) && ok
			}
		case k == "minLength" || k == "maxLength":
			if v.Kind == jsonval.String {
				n, lim := utf8.RuneCountInString(v.S), num(a)
				ok = (k == "minLength" && float64(n) >= lim || k == "maxLength" && float64(n) <= lim) && ok
			}
		case k == "minimum" || k == "maximum":
			if v.Kind == jsonval.Number {
				f := num(v)
				ok = (k == "minimum" && f >= num(a) || k == "maximum" && f <= num(a)) && ok
			}
		case k == "minItems" || k == "maxItems":
			if v.Kind == jsonval.Array {
				n := float64(len(v.Items))
				ok = (k == "minItems" && n >= num(a) || k == "maxItems" && n <= num(a)) && ok
			}
		case k == "minProperties" || k == "maxProperties":
			if v.Kind == jsonval.Object {
				n := float64(len(v.Keys))
				ok = (k == "minProperties" && n >= num(a) || k == "maxProperties" && n <= num(a)) && ok
			}
		case k == "required":
			if v.Kind == jsonval.Object {
				for _, r := range a.Items {
					ok = v.Get(r.S) != nil && ok
				}
			}
		case k == "items":
			if v.Kind == jsonval.Array {
				for _, it := range v.Items {
					ok = x.valid(a, it) && ok
				}
			}
		case k == "properties":
			if v.Kind == jsonval.Object {
				for j, name := range v.Keys {
					if ps := a.Get(name); ps != nil {
						ok = x.valid(ps, v.Vals[j]) && ok
					}
				}
			}
		case k == "propertyNames":
			if v.Kind == jsonval.Object {
				for _, name := range v.Keys {
					ok = x.valid(a, jsonval.NewString(name)) && ok
				}
			}
		case k == "additionalProperties":
			if v.Kind == jsonval.Object {
				props := s.Get("properties")
				for j, name := range v.Keys {
					if props.Get(name) == nil {
						ok = x.valid(a, v.Vals[j]) && ok
					}
				}
			}
		default:
			x.t.Fatalf("the schema uses %q, which this validator does not implement", k)
		}
	}
	return ok
}

func num(v *jsonval.Value) float64 {
	f, _ := v.Float()
	return f
}

func typeOf(t string, v *jsonval.Value) bool {
	switch t {
	case "object":
		return v.Kind == jsonval.Object
	case "array":
		return v.Kind == jsonval.Array
	case "string":
		return v.Kind == jsonval.String
	case "number":
		return v.Kind == jsonval.Number
	case "integer":
		f, ok := v.Float()
		return v.Kind == jsonval.Number && ok && f == math.Trunc(f)
	case "boolean":
		return v.Kind == jsonval.Bool
	case "null":
		return v.Kind == jsonval.Null
	}
	return false
}

func loadSchema(t *testing.T) *validator {
	t.Helper()
	b, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	root, err := jsonval.Parse(b)
	if err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	if s := root.Get("$schema"); s == nil || s.S != "https://json-schema.org/draft/2020-12/schema" {
		t.Fatalf("the schema does not state draft 2020-12: %v", s)
	}
	return &validator{root: root, t: t}
}

func parseJSON(t *testing.T, s string) *jsonval.Value {
	t.Helper()
	v, err := jsonval.Parse([]byte(s))
	if err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return v
}

// vectorManifests returns the manifest of every load request in the
// conformance vectors.
func vectorManifests(t *testing.T) map[string]*jsonval.Value {
	ins, _ := filepath.Glob("../../../testdata/vectors/*.in.jsonl")
	if len(ins) == 0 {
		t.Fatal("no conformance vectors")
	}
	out := map[string]*jsonval.Value{}
	for _, in := range ins {
		b, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 64<<20)
		for n := 1; sc.Scan(); n++ {
			req, err := jsonval.Parse(sc.Bytes())
			if err != nil || req.Get("op") == nil || req.Get("op").S != "load" || req.Get("manifest") == nil {
				continue
			}
			out[filepath.Base(in)+":"+strconv.Itoa(n)] = req.Get("manifest")
		}
	}
	return out
}

// TestSchemaAcceptsWhatLoads: the orders manifest, every manifest the
// vectors load successfully, and the orders draft are valid; every vector
// manifest the schema accepts but the compiler rejects is a fault only the
// compiler can see (a reference to an undeclared name, a cycle, a token
// slot on the wrong field).
func TestSchemaAcceptsWhatLoads(t *testing.T) {
	x := loadSchema(t)
	orders, err := os.ReadFile("../../../testdata/orders/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	if !x.valid(x.root, parseJSON(t, string(orders))) {
		t.Error("the orders manifest is invalid")
	}
	doc, err := os.ReadFile("../../../docs/first-manifest.md")
	if err != nil {
		t.Fatal(err)
	}
	tutorial := regexp.MustCompile("<!-- test: file manifest\\.json -->\n```json\n((?s:.*?))\n```").FindSubmatch(doc)
	if tutorial == nil || !x.valid(x.root, parseJSON(t, string(tutorial[1]))) {
		t.Error("the tutorial's manifest is missing or invalid")
	}
	text, e := FromJSON(readOrders(t), Options{Schema: DefaultSchema})
	if e != nil {
		t.Fatal(e)
	}
	if !x.valid(x.root, parseJSON(t, string(text))) {
		t.Error("the orders draft is invalid")
	}
	loaded, refused := 0, 0
	for name, m := range vectorManifests(t) {
		_, ce := manifest.Compile(m)
		valid := x.valid(x.root, m)
		switch {
		case ce == nil && !valid:
			t.Errorf("%s: the compiler loads it, the schema rejects it: %.300s", name, jsonval.Marshal(m))
		case ce == nil:
			loaded++
		case !valid:
			refused++
		default:
			if !compilerOnly.MatchString(ce.Message) {
				t.Errorf("%s: the compiler rejects it (%s), the schema accepts it", name, ce.Message)
			}
		}
	}
	t.Logf("%d vector manifests load, %d are refused by both", loaded, refused)
	if loaded < 20 || refused < 10 {
		t.Errorf("%d vector manifests load and %d are refused by both: too few to judge", loaded, refused)
	}
}

// compilerOnly are the faults a JSON Schema cannot see.
var compilerOnly = regexp.MustCompile(`not declared|cycle|duplicate|token|field conditions|overlap|must not exceed maxLimit|declares|covers|and more`)

// TestSchemaRejects: manifests the compiler rejects, one fault each, that
// the schema rejects too.
func TestSchemaRejects(t *testing.T) {
	x := loadSchema(t)
	for _, m := range []string{
		`{}`,
		`{"pinhole":2}`,
		`{"pinhole":1,"colour":"blue"}`,
		`{"pinhole":1,"limits":{"maxLimit":5000}}`,
		`{"pinhole":1,"limits":{"maxResponseBytes":100}}`,
		`{"pinhole":1,"limits":{"defaultLimit":2.5}}`,
		`{"pinhole":1,"regions":[{"id":"r","colour":"blue"}]}`,
		`{"pinhole":1,"regions":[{"id":""}]}`,
		`{"pinhole":1,"regions":[{"id":"r","activeWhen":{"path":"/a","like":"x"}}]}`,
		`{"pinhole":1,"regions":[{"id":"r","activeWhen":{"path":"/a","eq":1,"ne":2}}]}`,
		`{"pinhole":1,"regions":[{"id":"r","activeWhen":{"all":[]}}]}`,
		`{"pinhole":1,"regions":[{"id":"r"}],"collections":[{"region":"r","from":"items","id":"/id","fields":{}}]}`,
		`{"pinhole":1,"regions":[{"id":"r"}],"collections":[{"region":"r","from":"/items","id":"/id","fields":{"a":{"from":"/a","expose":"hash"}}}]}`,
		`{"pinhole":1,"regions":[{"id":"r"}],"collections":[{"region":"r","from":"/items","id":"/id","fields":{"a":{"from":"/a~2"}}}]}`,
		`{"pinhole":1,"regions":[{"id":"r"}],"collections":[{"region":"r","from":"/items","id":"/id"}]}`,
		`{"pinhole":1,"state":{"a":"no-slash"}}`,
		`{"pinhole":1,"state":{"$comment":7}}`,
		`{"pinhole":1,"feedback":{"from":"/t"}}`,
		`{"pinhole":1,"regions":[{"id":"r"}],"capabilities":[{"name":"c","description":"Do it","scope":"global","region":"r"}]}`,
		`{"pinhole":1,"regions":[{"id":"r"}],"capabilities":[{"name":"c","description":"Do it","scope":"page","region":"r","input":{"type":"string"}}]}`,
		`{"pinhole":1,"regions":[{"id":"r"}],"capabilities":[{"name":"c","description":"Do it","scope":"page","region":"r","input":{"properties":{}}}]}`,
		`{"pinhole":1,"regions":[{"id":"r"}],"capabilities":[{"name":"c","description":"Do it","scope":"page","region":"r","input":{"type":"object","pattern":"x"}}]}`,
		`{"pinhole":1,"regions":[{"id":"r"}],"capabilities":[{"name":"c","description":"Do it","scope":"page","region":"r","input":{"type":"object","$comment":"x"}}]}`,
		`{"pinhole":1,"regions":[{"id":"r"}],"capabilities":[{"name":"c","description":"Do it","scope":"page","region":"r","input":{"type":"object","properties":{"a":{"minLength":-1}}}}]}`,
		`{"pinhole":1,"$comment":""}`,
		`{"pinhole":1,"$schema":1}`,
	} {
		v := parseJSON(t, m)
		if _, e := manifest.Compile(v); e == nil {
			t.Errorf("the compiler accepts %s", m)
		}
		if x.valid(x.root, v) {
			t.Errorf("the schema accepts %s", m)
		}
	}
}

// TestSchemaLimitsAreTheCompilers: the schema's bounds on limits are the
// implementation's maximums.
func TestSchemaLimitsAreTheCompilers(t *testing.T) {
	x := loadSchema(t)
	props := x.root.Get("$defs").Get("limits").Get("properties")
	h, d := manifest.HardMax(), manifest.Defaults()
	for name, want := range map[string][2]int{
		"defaultLimit": {h.DefaultLimit, d.DefaultLimit}, "maxLimit": {h.MaxLimit, d.MaxLimit},
		"maxRecordSelection": {h.MaxRecordSelection, d.MaxRecordSelection}, "maxRecordIds": {h.MaxRecordIds, d.MaxRecordIds},
		"maxFieldChars": {h.MaxFieldChars, d.MaxFieldChars}, "maxFeedback": {h.MaxFeedback, d.MaxFeedback},
		"maxUnavailable": {h.MaxUnavailable, d.MaxUnavailable}, "maxResponseBytes": {h.MaxResponseBytes, d.MaxResponseBytes},
	} {
		p := props.Get(name)
		if p == nil || int(num(p.Get("maximum"))) != want[0] || int(num(p.Get("default"))) != want[1] {
			t.Errorf("%s: schema %s, want maximum %d and default %d", name, jsonval.Marshal(p), want[0], want[1])
		}
	}
	if int(num(props.Get("maxResponseBytes").Get("minimum"))) != manifest.MinResponseBytes {
		t.Error("maxResponseBytes minimum is not the compiler's")
	}
}
