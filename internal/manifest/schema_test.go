package manifest

import (
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/wire"
)

// withInput is a manifest with one page capability whose input schema is
// schema.
func withInput(schema string) string {
	return `{"pinhole":1,"regions":[{"id":"r"}],"capabilities":[
	 {"name":"c","description":"C","scope":"page","region":"r","input":` + schema + `}]}`
}

// TestSchemaIntegers: where the schema subset needs an integer, any number
// without a fractional part is one, however it is written (JSON Schema
// counts 2.0 as an integer); fractions, negatives and numbers too large to
// count exactly are not.
func TestSchemaIntegers(t *testing.T) {
	for _, kw := range []string{"minLength", "maxLength", "minItems", "maxItems"} {
		for _, tc := range []struct {
			n  string
			ok bool
		}{
			{"2", true}, {"0", true}, {"2.0", true}, {"2.00", true}, {"2e0", true}, {"20E-1", true}, {"0.0", true}, {"-0", true}, {"-0.0", true},
			{"2.5", false}, {"-1", false}, {"-1.0", false}, {"1e400", false}, {"1e20", false}, {`"2"`, false}, {"null", false},
		} {
			_, e := Parse([]byte(withInput(`{"type":"object","properties":{"p":{"` + kw + `":` + tc.n + `}}}`)))
			if tc.ok && e != nil {
				t.Errorf("%s %s: rejected: %v", kw, tc.n, e)
			}
			if !tc.ok && (e == nil || e.Code != wire.CodeInvalidManifest || e.Param != "/capabilities/0/input/properties/p/"+kw) {
				t.Errorf("%s %s: got %v, want invalid_manifest at the keyword", kw, tc.n, e)
			}
		}
	}
}

// TestSchemaIntegersCheck: a bound written 2.0 checks like 2.
func TestSchemaIntegersCheck(t *testing.T) {
	plan, e := Parse([]byte(withInput(`{"type":"object","properties":{
	  "s":{"type":"string","minLength":2.0,"maxLength":3.0},
	  "a":{"type":"array","minItems":1.0,"maxItems":2e0}}}`)))
	if e != nil {
		t.Fatal(e)
	}
	cp := &plan.Capabilities[0]
	for _, tc := range []struct{ input, param string }{
		{`{"s":"ab","a":[1]}`, ""},
		{`{"s":"abc","a":[1,2]}`, ""},
		{`{"s":"a"}`, "/s"},
		{`{"s":"abcd"}`, "/s"},
		{`{"a":[]}`, "/a"},
		{`{"a":[1,2,3]}`, "/a"},
	} {
		in, _ := jsonval.Parse([]byte(tc.input))
		e := cp.CheckInput(in)
		if tc.param == "" && e != nil {
			t.Errorf("%s: %v", tc.input, e)
		}
		if tc.param != "" && (e == nil || e.Param != tc.param) {
			t.Errorf("%s: got %v, want invalid_input at %s", tc.input, e, tc.param)
		}
	}
}

// TestSchemaRequiredNames: required takes any property name properties
// takes (control characters, the empty name, long names included), and
// only strings.
func TestSchemaRequiredNames(t *testing.T) {
	for _, name := range []string{`"a\u0001b"`, `""`, `"\u007f"`, `"x\ty"`, `"` + long + `"`} {
		plan, e := Parse([]byte(withInput(`{"type":"object","properties":{` + name + `:{"type":"string"}},"required":[` + name + `]}`)))
		if e != nil {
			t.Errorf("required %s rejected: %v", name, e)
			continue
		}
		cp := &plan.Capabilities[0]
		if e := cp.CheckInput(jsonval.NewObject()); e == nil || e.Code != wire.CodeInvalidInput {
			t.Errorf("required %s: a missing member passes (%v)", name, e)
		}
		in, _ := jsonval.Parse([]byte(`{` + name + `:"v"}`))
		if e := cp.CheckInput(in); e != nil {
			t.Errorf("required %s: the member is present but %v", name, e)
		}
	}
	for _, bad := range []string{`[1]`, `[null]`, `"a"`, `{}`} {
		_, e := Parse([]byte(withInput(`{"type":"object","required":` + bad + `}`)))
		if e == nil || e.Code != wire.CodeInvalidManifest {
			t.Errorf("required %s accepted", bad)
		}
	}
}

var long = func() string {
	b := make([]byte, 300)
	for i := range b {
		b[i] = 'n'
	}
	return string(b)
}()

// TestLimitsIntegers: manifest limits and maxChars read integers the same
// way as the schema keywords.
func TestLimitsIntegers(t *testing.T) {
	for _, tc := range []struct {
		m  string
		ok bool
	}{
		{`{"pinhole":1,"limits":{"maxLimit":20.0,"defaultLimit":4e0}}`, true},
		{`{"pinhole":1,"limits":{"maxLimit":20.5}}`, false},
		{`{"pinhole":1,"limits":{"maxLimit":0.0}}`, false},
		{`{"pinhole":1,"regions":[{"id":"r"}],"collections":[{"region":"r","from":"/a","id":"/id","fields":{"f":{"from":"/f","maxChars":16.0}}}]}`, true},
		{`{"pinhole":1,"regions":[{"id":"r"}],"collections":[{"region":"r","from":"/a","id":"/id","fields":{"f":{"from":"/f","maxChars":1.5}}}]}`, false},
	} {
		plan, e := Parse([]byte(tc.m))
		if (e == nil) != tc.ok {
			t.Errorf("%s: got %v, want ok %v", tc.m, e, tc.ok)
		}
		if e == nil && tc.ok && plan.Limits.MaxLimit != 50 && plan.Limits.MaxLimit != 20 {
			t.Errorf("%s: maxLimit %d", tc.m, plan.Limits.MaxLimit)
		}
	}
}

// TestHardMaxIsNotASetting: the implementation's maximums are not a
// variable an importer can raise for the whole process.
func TestHardMaxIsNotASetting(t *testing.T) {
	h := HardMax()
	h.MaxLimit = 1 << 30
	if HardMax().MaxLimit != 200 {
		t.Fatal("HardMax changed")
	}
	if _, e := Parse([]byte(`{"pinhole":1,"limits":{"maxLimit":201}}`)); e == nil || e.Param != "/limits/maxLimit" {
		t.Fatalf("maxLimit 201 accepted: %v", e)
	}
	d := Defaults()
	d.DefaultLimit = 99
	if Defaults().DefaultLimit != 8 {
		t.Fatal("Defaults changed")
	}
}
