package manifest

import (
	"strings"
	"testing"

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
