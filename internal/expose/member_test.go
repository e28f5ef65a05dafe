package expose_test

import (
	"testing"

	"github.com/pinholectx/pinhole/internal/expose"
)

// TestIsCredentialMember: a member of a composite value is judged with its
// name, as the same pair written as JSON text is.
func TestIsCredentialMember(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		want        bool
	}{
		{"api_key", "4f9c2b7e8a1d6053e9b7c4a2f8d1e6b3", true},
		{"password", "Tr0ub4dor&3xyz", true},
		{"client_secret", "feluqmr7x2kd9wq4zn8v", true},
		{"DB_PASSWORD", "hunter2hunter2", true},
		{"X-Auth-Token", "c2VjcmV0LXRva2VuLXZhbHVlLTEyMzQ1Ng", true},
		// Names that say nothing of a secret, whatever the value.
		{"sku", "4f9c2b7e8a1d6053e9b7c4a2f8d1e6b3", false},
		{"name", "Tr0ub4dor&3xyz", false},
		// Business names with a secret word in them, and values that are no
		// secret after a secret name.
		{"sortKey", "createdAt", false},
		{"pageToken", "2", false},
		{"author", "Ada Lovelace", false},
		{"password", "", false},
		{"token", "n/a", false},
	} {
		if got := expose.IsCredentialMember(tc.name, tc.value); got != tc.want {
			t.Errorf("IsCredentialMember(%q, %q) = %v, want %v", tc.name, tc.value, got, tc.want)
		}
	}
}
