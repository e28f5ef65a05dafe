package lint

import (
	"os"
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/manifest"
)

func TestTokenFindings(t *testing.T) {
	base := func(input string) string {
		return `{"pinhole":1,"regions":[{"id":"r","description":"Orders"},{"id":"x","description":"Other"}],"collections":[
		 {"region":"r","from":"/a","id":"/id","fields":{"card":{"from":"/pay/cardNumber","expose":"placeholder"},
		   "phone":{"from":"/p","expose":"alias"},"name":{"from":"/n"}}}],
		 "capabilities":[{"name":"x.run","description":"Run the thing","scope":"record","region":"r","input":` + input + `},
		  {"name":"y.run","description":"Elsewhere, no collections","scope":"page","region":"x",
		   "input":{"type":"object","properties":{"card":{"type":"string"}}}}]}`
	}
	cases := []struct {
		name, input string
		want        []string // At of each finding, in order
	}{
		{"slots declared", `{"type":"object","properties":{"card":{"type":"string","x-pinhole-token":{"field":"card"}},"note":{"type":"string"}}}`, nil},
		{"property named like a placeholder field", `{"type":"object","properties":{"Card":{"type":"string"}}}`,
			[]string{"/capabilities/0/input/properties/Card"}},
		{"property named like the field's source", `{"type":"object","properties":{"pay":{"type":"object","properties":{"cardNumber":{}}}}}`,
			[]string{"/capabilities/0/input/properties/pay/properties/cardNumber"}},
		{"inside items", `{"type":"object","properties":{"calls":{"type":"array","items":{"type":"object","properties":{"phone":{"type":"string"}}}}}}`,
			[]string{"/capabilities/0/input/properties/calls/items/properties/phone"}},
		{"plain field names are fine", `{"type":"object","properties":{"name":{"type":"string"}}}`, nil},
		{"slot with a description", `{"type":"object","properties":{"phone":{"type":"string","description":"The phone's alias","x-pinhole-token":{"field":"phone"}}}}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plan, err := manifest.Parse([]byte(base(c.input)))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range Plan(plan, nil) {
				got = append(got, f.At)
				if strings.Contains(f.Message, "4111") {
					t.Fatal("a finding quotes a value")
				}
			}
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Fatalf("findings at %v, want %v", got, c.want)
			}
		})
	}
}

// The orders example declares its card slot, so lint has nothing to say.
func TestTokenFindingsOrders(t *testing.T) {
	b, err := os.ReadFile("../../../testdata/orders/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	plan, perr := manifest.Parse(b)
	if perr != nil {
		t.Fatal(perr)
	}
	if f := tokenFindings(plan); len(f) != 0 {
		t.Fatalf("findings on the orders example: %v", f)
	}
	if len(plan.Capabilities[4].Slots) != 1 {
		t.Fatal("the orders example lost its card slot")
	}
}
