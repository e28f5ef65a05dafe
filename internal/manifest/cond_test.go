package manifest_test

import (
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
	"github.com/pinholectx/pinhole/internal/manifest"
)

// A value inside a cut one (an array the bridge cut, read by index) reads
// as the cut value does: present, and equal to nothing.
func TestConditionsReadCutValues(t *testing.T) {
	plan, err := manifest.Parse([]byte(`{"pinhole":1,"regions":[{"id":"r"}],"capabilities":[{"name":"a.b","description":"Do the thing","scope":"page","region":"r",
		"unavailable":[{"when":{"path":"/blockers/0","exists":true},"reason":"Blocked"},{"when":{"path":"/mode/0","eq":"off"},"reason":"Off"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rules := plan.Capabilities[0].Unavailable
	for _, c := range []struct {
		state            string
		blocked, offMode bool
	}{
		{`{"blockers":[],"mode":["on"]}`, false, false},
		{`{"blockers":["x"],"mode":["off"]}`, true, true},
		{`{"blockers":{"$cut":"size"},"mode":{"$cut":"size"}}`, true, false},
	} {
		root, perr := jsonval.Parse([]byte(c.state))
		if perr != nil {
			t.Fatal(perr)
		}
		if got := rules[0].When.Eval(root, nil); got != c.blocked {
			t.Errorf("%s: exists /blockers/0 = %v, want %v", c.state, got, c.blocked)
		}
		if got := rules[1].When.Eval(root, nil); got != c.offMode {
			t.Errorf("%s: /mode/0 eq off = %v, want %v", c.state, got, c.offMode)
		}
	}
}
