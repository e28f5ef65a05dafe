package manifest

import (
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/wire"
)

const inputManifest = `{"pinhole":1,"regions":[{"id":"r"}],"capabilities":[
 {"name":"ship","description":"Ship","scope":"page","region":"r","input":{"type":"object",
  "properties":{
   "carrier":{"type":"string","enum":["ups","dhl"]},
   "note":{"type":"string","minLength":2,"maxLength":5},
   "qty":{"type":"integer","minimum":1,"maximum":10},
   "amount":{"type":"number","minimum":0.01},
   "tags":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string","maxLength":3}},
   "flag":{"type":"boolean"},
   "nothing":{"type":"null"},
   "addr":{"type":"object","required":["zip"],"additionalProperties":false,
           "properties":{"zip":{"type":"string"},"lines":{"type":"array","items":{"type":"object","properties":{"l":{"type":"string","maxLength":1}}}}}},
   "any":{}},
  "required":["carrier"]}},
 {"name":"open","description":"Open","scope":"page","region":"r",
  "input":{"type":"object","properties":{"level":{"enum":[1,2,3]}}}},
 {"name":"bare","description":"No input schema","scope":"page","region":"r"}]}`

func TestCheckInput(t *testing.T) {
	plan, err := Parse([]byte(inputManifest))
	if err != nil {
		t.Fatal(err)
	}
	ship, open, bare := &plan.Capabilities[0], &plan.Capabilities[1], &plan.Capabilities[2]
	cases := []struct {
		name  string
		cap   *Capability
		input string // "" for a nil input
		param string
		msg   string // "" when the input is valid
	}{
		{"valid minimal", ship, `{"carrier":"ups"}`, "", ""},
		{"valid full", ship, `{"carrier":"dhl","note":"héllo","qty":10,"amount":0.01,"tags":["a","bcd"],"flag":true,"nothing":null,
			"addr":{"zip":"1","lines":[{"l":"x"}]},"any":[{"deep":1}],"extra":"allowed"}`, "", ""},
		{"integer written with a fraction", ship, `{"carrier":"ups","qty":2.0}`, "", ""},
		{"integer written with an exponent", ship, `{"carrier":"ups","qty":1e1}`, "", ""},
		{"input not an object", ship, `[]`, "", "input: must be of type object"},
		{"nil input is {}", ship, "", "/carrier", "input/carrier: is required"},
		{"missing required", ship, `{}`, "/carrier", "input/carrier: is required"},
		{"enum", ship, `{"carrier":"fedex-SECRET"}`, "/carrier", `input/carrier: must be one of ["ups","dhl"] (enum)`},
		{"wrong type", ship, `{"carrier":5}`, "/carrier", "input/carrier: must be of type string"},
		{"minLength", ship, `{"carrier":"ups","note":"x"}`, "/note", "input/note: must be at least 2 characters long (minLength)"},
		{"maxLength counts code points", ship, `{"carrier":"ups","note":"héllo!"}`, "/note", "input/note: must be at most 5 characters long (maxLength)"},
		{"not an integer", ship, `{"carrier":"ups","qty":1.5}`, "/qty", "input/qty: must be of type integer"},
		{"1e400 is an integer, past the maximum", ship, `{"carrier":"ups","qty":1e400}`, "/qty", "input/qty: must be at most 10 (maximum)"},
		{"1e-400 is not an integer", ship, `{"carrier":"ups","qty":1e-400}`, "/qty", "input/qty: must be of type integer"},
		{"below the minimum exactly, not as float64", ship, `{"carrier":"ups","amount":0.0099999999999999999}`, "/amount", "input/amount: must be at least 0.01 (minimum)"},
		{"minimum", ship, `{"carrier":"ups","qty":0}`, "/qty", "input/qty: must be at least 1 (minimum)"},
		{"maximum", ship, `{"carrier":"ups","qty":11}`, "/qty", "input/qty: must be at most 10 (maximum)"},
		{"fractional minimum", ship, `{"carrier":"ups","amount":0.001}`, "/amount", "input/amount: must be at least 0.01 (minimum)"},
		{"minItems", ship, `{"carrier":"ups","tags":[]}`, "/tags", "input/tags: must hold at least 1 items (minItems)"},
		{"maxItems", ship, `{"carrier":"ups","tags":["a","b","c"]}`, "/tags", "input/tags: must hold at most 2 items (maxItems)"},
		{"items", ship, `{"carrier":"ups","tags":["a","long"]}`, "/tags/1", "input/tags/1: must be at most 3 characters long (maxLength)"},
		{"boolean", ship, `{"carrier":"ups","flag":"yes"}`, "/flag", "input/flag: must be of type boolean"},
		{"null", ship, `{"carrier":"ups","nothing":0}`, "/nothing", "input/nothing: must be of type null"},
		{"nested required", ship, `{"carrier":"ups","addr":{}}`, "/addr/zip", "input/addr/zip: is required"},
		{"additionalProperties false", ship, `{"carrier":"ups","addr":{"zip":"1","cvv":"123"}}`, "/addr/cvv",
			"input/addr/cvv: is not a declared property (additionalProperties is false)"},
		{"undeclared credential-like name is not repeated", ship, `{"carrier":"ups","addr":{"zip":"1","ghp_abcdefghijklmnopqrstuvwxyz0123456789":1}}`, "/addr",
			"input/addr: has a member that is not a declared property (additionalProperties is false)"},
		{"deep items and escaped pointer", ship, `{"carrier":"ups","addr":{"zip":"1","lines":[{"l":"x"},{"l":"yy"}]}}`, "/addr/lines/1/l",
			"input/addr/lines/1/l: must be at most 1 characters long (maxLength)"},
		{"enum of numbers by value", open, `{"level":2.0}`, "", ""},
		{"enum without type", open, `{"level":"2"}`, "/level", "input/level: must be one of [1,2,3] (enum)"},
		{"default schema rejects members", bare, `{"x":1}`, "/x", "input/x: is not a declared property (additionalProperties is false)"},
		{"default schema accepts {}", bare, `{}`, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var in *jsonval.Value
			if c.input != "" {
				var err error
				if in, err = jsonval.Parse([]byte(c.input)); err != nil {
					t.Fatal(err)
				}
			}
			e := c.cap.CheckInput(in)
			if c.msg == "" {
				if e != nil {
					t.Fatalf("unexpected error %v", e)
				}
				return
			}
			if e == nil || e.Code != wire.CodeInvalidInput || e.Param != c.param || e.Message != c.msg {
				t.Fatalf("got %#v, want param %q message %q", e, c.param, c.msg)
			}
			if strings.Contains(e.Message, "SECRET") {
				t.Fatal("the message quotes the input")
			}
		})
	}
}
