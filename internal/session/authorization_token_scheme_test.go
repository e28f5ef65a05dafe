package session_test

import (
	"strings"
	"testing"
)

// The "Token" scheme of an Authorization header is caught "as a header
// line or a JSON member" (Authorization: Token …, "Authorization": "Token
// …"), as the Bearer scheme is. The store holds a request's headers as an
// object, and JSON.stringify writes the member without a blank after the
// colon: both must be caught as the Bearer scheme is.
func TestAuthorizationTokenSchemeCaughtAsBearerIs(t *testing.T) {
	m := `{"pinhole":1,"regions":[{"id":"main"}],"state":{"headers":"/headers","request":"/request"}}`
	for _, key := range []string{"9d3f7a1c2b8e4f60a5d7c3e1b9f2a4d6c8e0b1f3", "a7Kq2Lm9Xp4Rt8Zw1Yv6Bn3C"} {
		for _, scheme := range []string{"Bearer", "Token"} {
			member := `{"Authorization":"` + scheme + ` ` + key + `"}`
			s := sessionWith(t, m, `{"headers":`+member+`,"request":`+quoteJSON(member)+`}`)
			if d := mustRaw(t, s, `{"op":"describe"}`); strings.Contains(d, key) {
				t.Errorf("Authorization: %s scheme shows (as an object and as compact JSON text): %s", scheme, d)
			}
		}
	}
}
