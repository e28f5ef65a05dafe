package expose_test

import (
	"strings"
	"testing"

	"github.com/pinholectx/pinhole/internal/expose"
)

// docs/protocol.md and SECURITY.md: a mask shows an e-mail's first
// character and domain, and a text after @ that is not a host name shows
// nothing. A password or PIN of the common "Word@digits.digits" shape has
// no host name after its @ ("2024.05" has a numeric top label; "12.34.56",
// "1234." and "-.-" are none either), and a sentence whose words are
// joined by no-break spaces is no e-mail address. Such a value masks as
// "•••" whole: a first character kept would tell two of them apart.
func TestMaskShowsNoTailThatIsNoHostName(t *testing.T) {
	for in, tail := range map[string]string{
		"Summer@2024.05":            "2024.05",
		"Pa55word@12.34.56":         "12.34.56",
		"x9Lq@-.-":                  "-.-",
		"hunter2@1234.":             "1234.",
		"PIN\u00a0is\u00a0@4412.77": "4412.77",
	} {
		if got := expose.Mask(in); strings.Contains(got, tail) {
			t.Errorf("Mask(%q) = %q shows %q, which is no host name", in, got, tail)
		} else if got != "•••" {
			// Nor its first character, nor that it holds an "@".
			t.Errorf("Mask(%q) = %q, want •••: the value is no e-mail address", in, got)
		}
	}
}
