package expose_test

import (
	"testing"

	"github.com/pinholectx/pinhole/internal/expose"
)

// IsCredentialMember judges a member with its name "as the same pair
// written out". A value that holds a double quote is still one value: the
// pair must not be written so that the quote ends it early and leaves the
// rest of the password outside the net's reach.
func TestIsCredentialMemberValueWithQuote(t *testing.T) {
	for _, v := range []string{`a"Tr0ub4dor&3xyz`, `Tr0\"ub4dor&3xyz`} {
		if !expose.IsCredentialMember("password", v) {
			t.Errorf("IsCredentialMember(%q, %q) = false: the value is shown whole", "password", v)
		}
	}
}
