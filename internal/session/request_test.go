package session

import (
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/wire"
)

// TestUnknownParam: a caller's unknown parameter name is named back only
// when it is short and plain; otherwise the error says only that there was
// one.
func TestUnknownParam(t *testing.T) {
	for _, tc := range []struct {
		name  string
		named bool
	}{
		{"colour", true},
		{"", true},
		{strings.Repeat("x", 64), true},
		{strings.Repeat("x", 65), false},
		{"col\u200bour", false},
		{"a\u202eb", false},
		{"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", false},
	} {
		e := UnknownParam("describe", tc.name, "offset, limit or record")
		if e.Code != wire.CodeInvalidRequest || !strings.Contains(e.Message, "offset, limit or record") {
			t.Fatalf("%q: %+v", tc.name, e)
		}
		named := e.Param == tc.name && strings.Contains(e.Message, `"`+tc.name+`"`)
		if tc.name != "" && named != tc.named {
			t.Errorf("%q: named %v, want %v (%+v)", tc.name, named, tc.named, e)
		}
		if !tc.named && (e.Param != "" || strings.Contains(e.Message, tc.name)) {
			t.Errorf("%q is echoed: %+v", tc.name, e)
		}
	}
}
