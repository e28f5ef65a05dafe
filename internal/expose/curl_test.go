package expose_test

import (
	"testing"

	"github.com/pinholectx/pinhole/internal/expose"
)

// TestCurlCredentials: curl's -u/--user is a user:password pair; a pair
// that is one placeholder in brackets, or a password that is words in
// brackets or a template, is documentation, not a secret.
func TestCurlCredentials(t *testing.T) {
	for s, want := range map[string]bool{
		`curl -u elastic:P@ssw0rd$1 https://localhost:9200`:              true,
		`curl -u {user}:Real#Pass1 https://api.example.com`:              true,
		`curl -u admin:[Secret123] https://api.example.com`:              true,
		`curl -u <user:password> https://test.com/endpoint`:              false,
		`curl --user neo4j:[PASSWORD] http://localhost:7474/db/data/`:    false,
		`curl -u "${username}":"${password}" https://api.example.com`:    false,
		`curl -u admin:<your-password> https://api.example.com/v1/users`: false,
	} {
		if got := expose.IsCredential(s); got != want {
			t.Errorf("IsCredential(%q) = %v, want %v", s, got, want)
		}
	}
}
