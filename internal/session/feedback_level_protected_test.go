package session_test

import (
	"github.com/pinholectx/pinhole/internal/session"
	"strings"
	"testing"
)

// A feedback item's level and source are read from the store and shown
// when they are one of a few fixed words. One that reads a field the
// collection declares alias would show that field's value in plain
// whenever it is one of those words ("user", "system", "error", ...), and
// "unknown" would tell it is none: the load refuses it, as it refuses a
// feedback text that covers a protected field.
func TestFeedbackLevelOfProtectedFieldRefused(t *testing.T) {
	for _, c := range []struct{ member, value string }{
		{"source", "system"},
		{"level", "warning"},
	} {
		m := `{"pinhole":1,"regions":[{"id":"main"}],
		  "collections":[{"region":"main","from":"/accounts","id":"/id",
		    "fields":{"name":{"from":"/name"},"role":{"from":"/role","expose":"alias"}}}],
		  "feedback":{"from":"/accounts","text":"/name","` + c.member + `":"/role"}}`
		s := session.New()
		out := rawCall(t, s, `{"op":"load","key":"`+exchangeKey+`","manifest":`+m+`}`)
		if strings.Contains(out, `"invalid_manifest"`) {
			if !strings.Contains(out, `"param":"/feedback/`+c.member+`"`) {
				t.Errorf("refused, but not for the feedback %s: %s", c.member, out)
			}
			continue // refused at load: the value cannot show
		}
		mustRaw(t, s, `{"op":"observe","state":{"accounts":[{"id":"a1","name":"Lin","role":"`+c.value+`"},{"id":"a2","name":"Ada","role":"admin"}]}}`)
		d := mustRaw(t, s, `{"op":"describe"}`)
		if !strings.Contains(d, `"role":"al_`) {
			t.Fatalf("role is not aliased in the record: %s", d)
		}
		if strings.Contains(d, `"`+c.member+`":"`+c.value+`"`) {
			t.Errorf("feedback %s shows the aliased field's value %q in plain: %s", c.member, c.value, d)
		}
	}
}
