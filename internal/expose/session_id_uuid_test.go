package expose_test

import (
	"testing"

	"github.com/pinholectx/pinhole/internal/expose"
)

// A name ending in "Id" names an identifier (UserSecretsId, a project's
// GUID), but a session id is the session: whoever holds it is signed in.
// Frameworks mint session ids as UUIDs (Spring Session's default, among
// others). A UUID under a session's or a token's name stays caught, as it
// was before the identifier rule, wherever the net reads a name and a
// value together.
func TestSessionIDUUIDStaysCaught(t *testing.T) {
	const u = "0f8fad5b-d9cb-469f-a165-70867728950e"
	for _, s := range []string{
		"<SessionId>" + u + "</SessionId>",
		"<sessionID>" + u + "</sessionID>",
		`getenv("SESSION_ID", "` + u + `")`,
		`define('AUTH_TOKEN_ID', '` + u + `');`,
	} {
		if !expose.IsCredential(s) {
			t.Errorf("IsCredential(%q) = false: a session's or token's UUID shows", s)
		}
	}
}
