package manifest

import (
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/wire"
)

// slotManifest has a region r with a child d, a collection in each, and
// one capability whose input is the given schema and scope.
func slotManifest(scope, region, input string) string {
	return `{"pinhole":1,"regions":[{"id":"r"},{"id":"d","parent":"r"}],"collections":[
	 {"region":"r","from":"/a","id":"/id","fields":{"name":{"from":"/n"},"card":{"from":"/c","expose":"placeholder"},
	   "phone":{"from":"/p","expose":"alias"},"email":{"from":"/e","expose":"mask"}}},
	 {"region":"d","from":"/b","id":"/id","fields":{"card":{"from":"/c","expose":"placeholder"},"phone":{"from":"/p","expose":"placeholder"}}}],
	 "capabilities":[{"name":"x.run","description":"Run x","scope":"` + scope + `","region":"` + region + `","input":` + input + `}]}`
}

func TestTokenSlots(t *testing.T) {
	prop := func(kw string) string {
		return `{"type":"object","properties":{"v":{"type":"string","x-pinhole-token":` + kw + `}}}`
	}
	cases := []struct {
		name, scope, region, input string
		param                      string // of the invalid_manifest error; "" when valid
		want                       TokenSlot
	}{
		{"record scope placeholder", "record", "r", prop(`{"field":"card"}`), "", TokenSlot{Field: "card", Expose: Placeholder}},
		{"record scope, record request", "record", "r", prop(`{"field":"card","record":"request"}`), "", TokenSlot{Field: "card", Expose: Placeholder}},
		{"page scope, the token chooses", "page", "d", prop(`{"field":"phone","record":"token"}`), "", TokenSlot{Field: "phone", Expose: Placeholder, ByToken: true}},
		{"nested property", "record", "d",
			`{"type":"object","properties":{"pay":{"type":"object","properties":{"with":{"x-pinhole-token":{"field":"card"}}}}}}`,
			"", TokenSlot{Field: "card", Expose: Placeholder}},
		{"plain field", "record", "r", prop(`{"field":"name"}`), "/capabilities/0/input/properties/v/x-pinhole-token/field", TokenSlot{}},
		{"masked field", "record", "r", prop(`{"field":"email"}`), "/capabilities/0/input/properties/v/x-pinhole-token/field", TokenSlot{}},
		{"unknown field", "record", "r", prop(`{"field":"cvv"}`), "/capabilities/0/input/properties/v/x-pinhole-token/field", TokenSlot{}},
		{"field only in a collection the capability does not apply to", "record", "d", prop(`{"field":"email"}`),
			"/capabilities/0/input/properties/v/x-pinhole-token/field", TokenSlot{}},
		{"alias here, placeholder there", "record", "r", prop(`{"field":"phone"}`), "/capabilities/0/input/properties/v/x-pinhole-token/field", TokenSlot{}},
		{"page scope must say how the record is chosen", "page", "d", prop(`{"field":"card"}`),
			"/capabilities/0/input/properties/v/x-pinhole-token/record", TokenSlot{}},
		{"page scope cannot take the request's record", "page", "d", prop(`{"field":"card","record":"request"}`),
			"/capabilities/0/input/properties/v/x-pinhole-token/record", TokenSlot{}},
		{"record scope cannot let the token choose", "record", "d", prop(`{"field":"card","record":"token"}`),
			"/capabilities/0/input/properties/v/x-pinhole-token/record", TokenSlot{}},
		{"unknown record choice", "record", "d", prop(`{"field":"card","record":"selected"}`),
			"/capabilities/0/input/properties/v/x-pinhole-token/record", TokenSlot{}},
		{"unknown key", "record", "d", prop(`{"field":"card","kind":"x"}`),
			"/capabilities/0/input/properties/v/x-pinhole-token/kind", TokenSlot{}},
		{"not an object", "record", "d", prop(`"card"`), "/capabilities/0/input/properties/v/x-pinhole-token", TokenSlot{}},
		{"inside items", "record", "d", `{"type":"object","properties":{"v":{"type":"array","items":{"x-pinhole-token":{"field":"card"}}}}}`,
			"/capabilities/0/input/properties/v/items/x-pinhole-token", TokenSlot{}},
		{"under items, deeper", "record", "d",
			`{"type":"object","properties":{"v":{"type":"array","items":{"type":"object","properties":{"c":{"x-pinhole-token":{"field":"card"}}}}}}}`,
			"/capabilities/0/input/properties/v/items/properties/c/x-pinhole-token", TokenSlot{}},
		{"the input itself", "record", "d", `{"type":"object","x-pinhole-token":{"field":"card"}}`, "/capabilities/0/input/x-pinhole-token", TokenSlot{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plan, err := Parse([]byte(slotManifest(c.scope, c.region, c.input)))
			if c.param != "" {
				if err == nil || err.Code != wire.CodeInvalidManifest || err.Param != c.param {
					t.Fatalf("want invalid_manifest at %s, got %v", c.param, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			slots := plan.Capabilities[0].Slots
			if len(slots) != 1 {
				t.Fatalf("%d slots", len(slots))
			}
			got := slots[0]
			if got.Field != c.want.Field || got.Expose != c.want.Expose || got.ByToken != c.want.ByToken {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			if last := got.At[len(got.At)-1]; last != "v" && last != "with" {
				t.Fatalf("slot at %s", got.At)
			}
			// The keyword stays in the schema the agent is shown.
			if !strings.Contains(string(plan.Capabilities[0].InputJSON), `"x-pinhole-token"`) {
				t.Fatal("the schema shown lost the slot")
			}
		})
	}
	plan, err := Parse([]byte(slotManifest("record", "d",
		`{"type":"object","properties":{"pay":{"type":"object","properties":{"with":{"x-pinhole-token":{"field":"card"}}}},"tel":{"x-pinhole-token":{"field":"phone"}}}}`)))
	if err != nil {
		t.Fatal(err)
	}
	if s := plan.Capabilities[0].Slots; len(s) != 2 || s[0].At.String() != "/pay/with" || s[1].At.String() != "/tel" {
		t.Fatalf("slots %+v", s)
	}
}

// TestSlotSchemaKeywords: a slot's schema holds only type, description,
// title and x-pinhole-token. Every other keyword would have prepare judge
// or walk the hidden value behind the token, and is refused at load with
// its own pointer.
func TestSlotSchemaKeywords(t *testing.T) {
	slot := func(extra string) string {
		return `{"type":"object","properties":{"v":{` + extra + `"x-pinhole-token":{"field":"card"}}}}`
	}
	const at = "/capabilities/0/input/properties/v"
	cases := []struct {
		name, extra, param string
	}{
		{"type", `"type":"object",`, ""},
		{"description and title", `"description":"The card","title":"Card",`, ""},
		{"nothing else", ``, ""},
		{"properties", `"type":"object","properties":{"city":{}},`, at + "/properties"},
		{"additionalProperties", `"additionalProperties":false,`, at + "/additionalProperties"},
		{"required", `"required":["city"],`, at + "/required"},
		{"items", `"type":"array","items":{},`, at + "/items"},
		{"enum", `"enum":["4242"],`, at + "/enum"},
		{"minimum", `"minimum":1,`, at + "/minimum"},
		{"maximum", `"maximum":1,`, at + "/maximum"},
		{"minLength", `"minLength":1,`, at + "/minLength"},
		{"maxLength", `"maxLength":1,`, at + "/maxLength"},
		{"minItems", `"minItems":1,`, at + "/minItems"},
		{"maxItems", `"maxItems":1,`, at + "/maxItems"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plan, err := Parse([]byte(slotManifest("record", "d", slot(c.extra))))
			if c.param == "" {
				if err != nil {
					t.Fatal(err)
				}
				if want := map[bool]string{true: "object", false: ""}[strings.Contains(c.extra, `"type"`)]; plan.Capabilities[0].Slots[0].Type != want {
					t.Fatalf("slot type %q, want %q", plan.Capabilities[0].Slots[0].Type, want)
				}
				return
			}
			if err == nil || err.Code != wire.CodeInvalidManifest || err.Param != c.param || !strings.Contains(err.Message, "token slot") {
				t.Fatalf("want invalid_manifest at %s, got %v", c.param, err)
			}
		})
	}
	// A keyword written after x-pinhole-token is refused as well.
	_, err := Parse([]byte(slotManifest("record", "d", `{"type":"object","properties":{"v":{"x-pinhole-token":{"field":"card"},"enum":["x"]}}}`)))
	if err == nil || err.Param != at+"/enum" {
		t.Fatalf("a keyword after x-pinhole-token: %v", err)
	}
}

// TestCheckInputLeavesSlotsToResolution: CheckInput judges the input as the
// agent wrote it and skips the slots (a placeholder object in a string
// slot is not a type error); CheckResolved checks only the slot's declared
// type of the value behind the token, with a message that names the slot
// alone.
func TestCheckInputLeavesSlotsToResolution(t *testing.T) {
	plan, err := Parse([]byte(slotManifest("record", "d",
		`{"type":"object","properties":{"v":{"type":"string","x-pinhole-token":{"field":"card"}},"n":{"type":"number"}},"required":["v"],"additionalProperties":false}`)))
	if err != nil {
		t.Fatal(err)
	}
	cp := &plan.Capabilities[0]
	cases := []struct {
		name, input, param string
		resolved           bool // checked with CheckResolved, not CheckInput
		message            string
	}{
		{"placeholder object in a string slot", `{"v":{"$placeholder":"ph_x"}}`, "", false, ""},
		{"other members still checked", `{"v":{"$placeholder":"ph_x"},"n":"1"}`, "/n", false, "input/n: must be of type number"},
		{"required still checked", `{"n":1}`, "/v", false, "input/v: is required"},
		{"closed object still checked", `{"v":"x","z":1}`, "/z", false, "input/z: is not a declared property (additionalProperties is false)"},
		{"resolved value of the slot's type", `{"v":"4242"}`, "", true, ""},
		{"resolved value of another type", `{"v":{"ssn-123-45-6789":"x"}}`, "/v", true, "input/v: the value behind this token is not a string"},
		{"slot absent", `{"n":1}`, "", true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, perr := jsonval.Parse([]byte(c.input))
			if perr != nil {
				t.Fatal(perr)
			}
			var e *wire.Error
			if c.resolved {
				e = cp.CheckResolved(v)
			} else {
				e = cp.CheckInput(v)
			}
			if c.param == "" {
				if e != nil {
					t.Fatalf("unexpected %v", e)
				}
				return
			}
			if e == nil || e.Code != wire.CodeInvalidInput || e.Param != c.param || e.Message != c.message {
				t.Fatalf("want %q at %s, got %v", c.message, c.param, e)
			}
		})
	}
}
