package project

import (
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

// A plain value is judged with its manifest name "as one given under that
// name". Names of the password family also name what is about a password
// and is not one: its strength, its reset status, when it last changed. Those
// values are ordinary business values, shown before names were read, and
// must stay shown (and a member of a composite under such a name likewise).
func TestPlainPasswordAboutNamesShowBusinessValues(t *testing.T) {
	for _, c := range []struct{ name, json string }{
		{"passwordStrength", `"Strong"`},
		{"passwordStrength", `"Medium"`},
		{"passwordResetStatus", `"Pending"`},
		{"pwdLastSet", `133578432000000000`},
		{"passwordChangedAt", `1717171717`},
	} {
		v, err := jsonval.Parse([]byte(c.json))
		if err != nil {
			t.Fatal(err)
		}
		if o := plain(v, 512, c.name); o.redacted {
			t.Errorf("plain(%s, %q) = %s: a business value redacted by its name", c.json, c.name, o.json)
		}
		obj, err := jsonval.Parse([]byte(`{"` + c.name + `":` + c.json + `}`))
		if err != nil {
			t.Fatal(err)
		}
		if o := plain(obj, 512, ""); o.redacted {
			t.Errorf("plain({%q: %s}) = %s: a business value redacted by its member name", c.name, c.json, o.json)
		}
	}
}
