package lint

import (
	"testing"

	"github.com/pinholectx/pinhole/internal/jsonval"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		json string
		want [numKinds]bool // credential, e-mail, phone, card
	}{
		{`"lin.zhou+shop@mail.example.co.uk"`, [numKinds]bool{kindEmail: true}},
		{`"write to omar@example.net today"`, [numKinds]bool{kindEmail: true}},
		{`"@handle"`, [numKinds]bool{}},
		{`"a@b"`, [numKinds]bool{}},
		{`"a@b.c"`, [numKinds]bool{}},
		{`"user@host.123"`, [numKinds]bool{}},
		{`"+44 20 7946 1000"`, [numKinds]bool{kindPhone: true}},
		{`"(555) 123-4567"`, [numKinds]bool{kindPhone: true}},
		{`"call 555-1234 now"`, [numKinds]bool{kindPhone: true}},
		{`"12345678"`, [numKinds]bool{}},   // bare digits: ids look the same
		{`"2026-10-01"`, [numKinds]bool{}}, // a date
		{`"SO-1001234"`, [numKinds]bool{}}, // part of an id
		{`"555-12"`, [numKinds]bool{}},     // too short
		{`"Deliver after 5 pm"`, [numKinds]bool{}},
		{`"4242 4242 4242 4242"`, [numKinds]bool{kindCard: true}},
		{`"4242-4242-4242-4242"`, [numKinds]bool{kindCard: true}},
		{`"4242424242424241"`, [numKinds]bool{}},              // fails Luhn, too long for a phone
		{`"378282246310005"`, [numKinds]bool{kindCard: true}}, // 15-digit Amex
		{`"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl"`, [numKinds]bool{kindCredential: true}},
		{`{"a":["x",{"b":"ada@example.com"}],"c":"+1 (415) 555-0100"}`, [numKinds]bool{kindEmail: true, kindPhone: true}},
		{`313.83`, [numKinds]bool{}},
		{`null`, [numKinds]bool{}},
		// Digits grouped by dots, in the shapes phone and card numbers are
		// written in; prices, versions, dates and addresses are not.
		{`"555.123.4567"`, [numKinds]bool{kindPhone: true}},
		{`"call 01.23.45.67.89"`, [numKinds]bool{kindPhone: true}},
		{`"4111.1111.1111.1111"`, [numKinds]bool{kindCard: true}},
		{`"4111.1111.1111.1112"`, [numKinds]bool{}}, // fails Luhn
		{`"1234567.89"`, [numKinds]bool{}},
		{`"v1.2.3"`, [numKinds]bool{}},
		{`"01.10.2026"`, [numKinds]bool{}},
		{`"192.168.100.201"`, [numKinds]bool{}},
		// IBANs, grouped or not; a wrong check digit is none.
		{`"DE89370400440532013000"`, [numKinds]bool{kindIBAN: true}},
		{`"pay to FR14 2004 1010 0505 0001 3M02 606"`, [numKinds]bool{kindIBAN: true}},
		{`"DE88370400440532013000"`, [numKinds]bool{}},
		{`"SKU DE1234 in stock"`, [numKinds]bool{}},
		{`"GM2951173225174433"`, [numKinds]bool{}},               // a tracking number: GM is no IBAN country
		{`"Flight LH12 pack will from today"`, [numKinds]bool{}}, // nor LH
		{`"DE89 3704 0044 0532 0130 00"`, [numKinds]bool{kindIBAN: true}},
		{`"DE893704004405320130001"`, [numKinds]bool{}}, // a German IBAN has 22 characters
		// The end of a longer chain of dotted numbers is no phone number.
		{`"backup-2026.12.01.14.30.45.tar.gz"`, [numKinds]bool{}},
		{`"build 2024.05.13.09.41.22"`, [numKinds]bool{}},
		{`"12.34.56.78.90.12"`, [numKinds]bool{}},
		// Internationalised e-mail addresses.
		{`"jöhn@exämple.de"`, [numKinds]bool{kindEmail: true}},
		{`"bob@例え.jp"`, [numKinds]bool{kindEmail: true}},
	}
	for _, c := range cases {
		v, err := jsonval.Parse([]byte(c.json))
		if err != nil {
			t.Fatal(err)
		}
		if got := classify(v); got != c.want {
			t.Errorf("classify(%s) = %v, want %v", c.json, got, c.want)
		}
	}
	if got := classify(nil); got != ([numKinds]bool{}) {
		t.Errorf("classify(nil) = %v", got)
	}
}

func TestNameKinds(t *testing.T) {
	cases := []struct {
		name string
		want [numKinds]bool
	}{
		{"email", [numKinds]bool{kindEmail: true}},
		{"customerEmail", [numKinds]bool{kindEmail: true}},
		{"contact_e_mail", [numKinds]bool{kindEmail: true}},
		{"mobilePhone", [numKinds]bool{kindPhone: true}},
		{"tel", [numKinds]bool{kindPhone: true}},
		{"card", [numKinds]bool{kindCard: true}},
		{"CreditCardNo", [numKinds]bool{kindCard: true}},
		{"api_key", [numKinds]bool{kindCredential: true}},
		{"sessionId", [numKinds]bool{kindCredential: true}},
		{"password", [numKinds]bool{kindCredential: true}},
		{"token", [numKinds]bool{kindCredential: true}},
		{"customer", [numKinds]bool{}},
		{"scorecard", [numKinds]bool{}},
		{"author", [numKinds]bool{}},
		{"sortKey", [numKinds]bool{}},
		{"telemetry", [numKinds]bool{}},
		{"token1", [numKinds]bool{kindCredential: true}},
		{"pwd2", [numKinds]bool{kindCredential: true}},
		{"cc1", [numKinds]bool{kindCard: true}},
		{"ibanCode", [numKinds]bool{kindIBAN: true}},
		{"tokenize", [numKinds]bool{}},
	}
	for _, c := range cases {
		if got := nameKinds(c.name); got != c.want {
			t.Errorf("nameKinds(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestLuhn(t *testing.T) {
	for s, want := range map[string]bool{"4242424242424242": true, "4111111111111111": true, "4111111111111112": false, "79927398713": true} {
		if got := luhn([]byte(s)); got != want {
			t.Errorf("luhn(%s) = %v", s, got)
		}
	}
}

// TestExportedKinds: the exported detectors answer what lint's own checks
// find, for names and for values.
func TestExportedKinds(t *testing.T) {
	for _, tc := range []struct {
		name string
		want Kinds
	}{
		{"customerEmail", Kinds{Email: true}}, {"apiKey", Kinds{Credential: true}}, {"mobile", Kinds{Phone: true}},
		{"cardNumber", Kinds{Card: true}}, {"status", Kinds{}},
	} {
		if got := NameSuggests(tc.name); got != tc.want {
			t.Errorf("NameSuggests(%q) = %+v, want %+v", tc.name, got, tc.want)
		}
	}
	v, err := jsonval.Parse([]byte(`["a@example.com", {"p": "+44 20 7946 0123"}, "4111 1111 1111 1111", "Ready to ship"]`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ValueLooksLike(v), (Kinds{Email: true, Phone: true, Card: true}); got != want {
		t.Errorf("ValueLooksLike = %+v, want %+v", got, want)
	}
	if ValueLooksLike(nil).Any() || !ValueLooksLike(jsonval.NewString("ghp_0123456789abcdefghijklmnopqrstuvwxyzAB")).Credential {
		t.Error("nil must find nothing and a GitHub token a credential")
	}
	if (Kinds{Email: true}).Or(Kinds{Card: true}) != (Kinds{Email: true, Card: true}) {
		t.Error("Or is not the union")
	}
}
