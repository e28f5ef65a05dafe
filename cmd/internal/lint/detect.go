package lint

import (
	"strings"

	"github.com/pinholectx/pinhole/internal/expose"
	"github.com/pinholectx/pinhole/internal/jsonval"
)

// The kinds of sensitive data lint looks for, in the order it reports them.
const (
	kindCredential = iota
	kindEmail
	kindPhone
	kindCard
	kindIBAN
	numKinds
)

var kinds = [numKinds]struct{ one, plural string }{
	{"a credential", "credentials"},
	{"an e-mail address", "e-mail addresses"},
	{"a phone number", "phone numbers"},
	{"a card number", "card numbers"},
	{"an IBAN", "IBANs"},
}

// nameWords maps words of a declared name to the kind they suggest.
var nameWords = map[string]int{
	"password": kindCredential, "passwd": kindCredential, "pwd": kindCredential,
	"passphrase": kindCredential, "secret": kindCredential, "token": kindCredential,
	"apikey": kindCredential, "credential": kindCredential, "credentials": kindCredential,
	"cookie": kindCredential, "jwt": kindCredential, "bearer": kindCredential,
	"authorization": kindCredential, "otp": kindCredential, "pin": kindCredential,
	"email": kindEmail, "mail": kindEmail,
	"phone": kindPhone, "telephone": kindPhone, "tel": kindPhone, "mobile": kindPhone,
	"cell": kindPhone, "fax": kindPhone, "msisdn": kindPhone,
	"card": kindCard, "pan": kindCard, "cc": kindCard, "ccnumber": kindCard,
	"creditcard": kindCard, "cardnumber": kindCard,
	"iban": kindIBAN,
}

// nameCompounds are matched anywhere in a name with separators removed
// ("customer_api_key", "CreditCardNo").
var nameCompounds = map[string]int{
	"password": kindCredential, "apikey": kindCredential, "accesskey": kindCredential,
	"secretkey": kindCredential, "privatekey": kindCredential, "sessionid": kindCredential,
	"authtoken": kindCredential, "accesstoken": kindCredential, "refreshtoken": kindCredential,
	"email": kindEmail, "phone": kindPhone, "creditcard": kindCard, "cardnumber": kindCard,
}

// nameKinds reports which kinds a declared name (or path token) suggests.
func nameKinds(name string) (hits [numKinds]bool) {
	if expose.IsCredential(name) {
		hits[kindCredential] = true
	}
	var joined strings.Builder
	for _, w := range Words(name) {
		// "token1", "pwd2": the word before the digits counts too.
		if k, ok := nameWords[strings.TrimRight(w, "0123456789")]; ok {
			hits[k] = true
		}
		joined.WriteString(w)
	}
	j := joined.String()
	for c, k := range nameCompounds {
		if strings.Contains(j, c) {
			hits[k] = true
		}
	}
	return hits
}

// Words splits a name at non-alphanumerics and at lower-to-upper case
// changes, lower-cased: "customerEMail_2" -> customer, email, 2. The
// draft names its fields with the same words the detectors read (which
// also split a word's letters from its digits: nameKinds).
func Words(name string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(name); i++ {
		c := byte(0)
		if i < len(name) {
			c = name[i]
		}
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		split := !letter || (start >= 0 && c >= 'A' && c <= 'Z' && name[i-1] >= 'a' && name[i-1] <= 'z')
		if split && start >= 0 {
			out = append(out, strings.ToLower(name[start:i]))
			start = -1
		}
		if letter && start < 0 {
			start = i
		}
	}
	return out
}

// maxStrings bounds how many strings of one value classify looks at.
const maxStrings = 1000

// classify reports which kinds the strings inside v look like; v may be nil
// or any JSON value.
func classify(v *jsonval.Value) (hits [numKinds]bool) {
	n := 0
	var walk func(v *jsonval.Value, depth int)
	walk = func(v *jsonval.Value, depth int) {
		if v == nil || depth > 32 || n >= maxStrings {
			return
		}
		switch v.Kind {
		case jsonval.String:
			n++
			s := v.S
			hits[kindCredential] = hits[kindCredential] || expose.IsCredential(s)
			hits[kindEmail] = hits[kindEmail] || hasEmail(s)
			phone, card := numbers(s)
			hits[kindPhone] = hits[kindPhone] || phone
			hits[kindCard] = hits[kindCard] || card
			hits[kindIBAN] = hits[kindIBAN] || hasIBAN(s)
		case jsonval.Array:
			for _, it := range v.Items {
				walk(it, depth+1)
			}
		case jsonval.Object:
			for _, it := range v.Vals {
				walk(it, depth+1)
			}
		}
	}
	walk(v, 0)
	return hits
}

// hasEmail reports whether s contains local@domain.tld: a local part of
// letters, digits and ._%+-, a domain of at least two dot-separated labels,
// and a top-level label of two or more letters.
func hasEmail(s string) bool {
	for at := strings.IndexByte(s, '@'); at >= 0; {
		if emailAt(s, at) {
			return true
		}
		next := strings.IndexByte(s[at+1:], '@')
		if next < 0 {
			break
		}
		at += 1 + next
	}
	return false
}

func emailAt(s string, at int) bool {
	i := at
	for i > 0 && localByte(s[i-1]) {
		i--
	}
	if i == at {
		return false
	}
	j := at + 1
	for j < len(s) && domainByte(s[j]) {
		j++
	}
	domain := strings.TrimRight(s[at+1:j], ".")
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" {
			return false
		}
	}
	tld := labels[len(labels)-1]
	if len(tld) < 2 {
		return false
	}
	for k := 0; k < len(tld); k++ {
		if c := tld[k]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80) {
			return false
		}
	}
	return true
}

// localByte and domainByte accept any byte of a multi-byte UTF-8
// character too: internationalised addresses (RFC 6531, IDNA) are e-mail
// addresses as well ("jöhn@exämple.de", "bob@例え.jp").
func localByte(c byte) bool {
	return isAlnum(c) || c >= 0x80 || strings.IndexByte("._%+-", c) >= 0
}

func domainByte(c byte) bool { return isAlnum(c) || c >= 0x80 || c == '-' || c == '.' }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// numbers looks at every run of digits, spaces and + ( ) - in s. A run of
// 13 to 19 digits that passes the Luhn check is a card number. A run of 7
// to 15 digits that is not a card number is a phone number when it starts
// with + or ( or holds a separator; bare digit strings are not reported
// (ids and timestamps look the same) and neither are dates (2026-10-01).
func numbers(s string) (phone, card bool) {
	for i := 0; i < len(s); {
		if !runByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && runByte(s[j]) {
			j++
		}
		for i < len(s) && s[i] == ' ' {
			i++ // blanks before a run are no part of it
		}
		if i == len(s) {
			break
		}
		if dotted, k := dottedNumber(s[i:]); k > 0 && !(i > 0 && (isAlnum(s[i-1]) || s[i-1] == '.')) &&
			!(i+k < len(s) && (isAlnum(s[i+k]) || s[i+k] == '.' && i+k+1 < len(s) && isDigit(s[i+k+1]))) {
			// Digits grouped by dots: a phone number written 555.123.4567
			// or 01.23.45.67.89, a card number 4111.1111.1111.1111.
			switch {
			case len(dotted) == 16 && luhn(dotted):
				card = true
			case len(dotted) == 10:
				phone = true
			}
			i += k
			continue
		}
		// A run glued to a letter ("SO-1001", "2026-10-01T08") is part of
		// a word, not a number on its own.
		glued := i > 0 && isAlnum(s[i-1]) && s[i] != ' ' || j < len(s) && isAlnum(s[j]) && s[j-1] != ' '

		run := strings.Trim(s[i:j], " -")
		i = j
		if glued || run == "" {
			continue
		}
		var digits []byte
		separated := run[0] == '+' || run[0] == '('
		for k := 0; k < len(run); k++ {
			if c := run[k]; c >= '0' && c <= '9' {
				digits = append(digits, c)
			} else {
				separated = true
			}
		}
		switch {
		case len(digits) >= 13 && len(digits) <= 19 && luhn(digits):
			card = true
		case len(digits) >= 7 && len(digits) <= 15 && separated && !isDate(run):
			phone = true
		}
	}
	return phone, card
}

// dottedNumber reads digits grouped by single dots at the start of s in
// one of the shapes phone and card numbers are written in (3.3.4, five
// groups of 2, four groups of 4) and returns the digits and the bytes read,
// 0 for none. Prices (1234.56), versions (1.2.3), dates (01.10.2026) and
// IPv4 addresses have other shapes.
func dottedNumber(s string) ([]byte, int) {
	var groups [5]int
	var digits []byte
	n, g := 0, 0
	for n < len(s) && g < len(groups) {
		start := n
		for n < len(s) && isDigit(s[n]) {
			n++
		}
		if n == start {
			return nil, 0
		}
		digits = append(digits, s[start:n]...)
		groups[g] = n - start
		g++
		if n+1 < len(s) && s[n] == '.' && isDigit(s[n+1]) {
			n++
			continue
		}
		break
	}
	shape := groups[:g]
	switch {
	case g == 3 && shape[0] == 3 && shape[1] == 3 && shape[2] == 4,
		g == 5 && shape[0] == 2 && shape[1] == 2 && shape[2] == 2 && shape[3] == 2 && shape[4] == 2,
		g == 4 && shape[0] == 4 && shape[1] == 4 && shape[2] == 4 && shape[3] == 4:
		return digits, n
	}
	return nil, 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ibanLengths is the length of an IBAN in each country of the ISO 13616
// registry (SWIFT's IBAN Registry), by country code.
var ibanLengths = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27,
	"BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28,
	"EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
	"GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27,
	"JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25,
	"MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18,
	"NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33,
	"SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28,
	"TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}

// hasIBAN reports whether s holds an IBAN (ISO 13616): a country code of
// the registry, two check digits and the country's number of letters and
// digits, written whole or in groups of four, whose mod-97 check (ISO
// 7064) gives 1.
func hasIBAN(s string) bool {
	for i := 0; i+15 <= len(s); i++ {
		if i > 0 && isAlnum(s[i-1]) || !(isUpper(s[i]) && isUpper(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3])) {
			continue
		}
		want := ibanLengths[s[i:i+2]]
		if want == 0 {
			continue
		}
		var b [34]byte
		n := 0
		j := i
		for j < len(s) && n < want && (isAlnum(s[j]) || s[j] == ' ' && n > 0 && n%4 == 0 && j+1 < len(s) && isAlnum(s[j+1])) {
			if s[j] != ' ' {
				b[n] = s[j]
				n++
			}
			j++
		}
		if n == want && (j == len(s) || !isAlnum(s[j])) && mod97(b[:n]) == 1 {
			return true
		}
	}
	return false
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// mod97 is ISO 7064 MOD 97-10 of an IBAN: its first four characters moved
// to the end, letters read as 10 to 35.
func mod97(iban []byte) int {
	r := 0
	for k := 0; k < len(iban); k++ {
		c := iban[(k+4)%len(iban)]
		switch {
		case isDigit(c):
			r = (r*10 + int(c-'0')) % 97
		case isUpper(c):
			r = (r*100 + int(c-'A'+10)) % 97
		case c >= 'a' && c <= 'z':
			r = (r*100 + int(c-'a'+10)) % 97
		default:
			return -1
		}
	}
	return r
}

func runByte(c byte) bool {
	return c >= '0' && c <= '9' || c == ' ' || c == '+' || c == '(' || c == ')' || c == '-'
}

// isDate reports whether run is NNNN-NN-NN.
func isDate(run string) bool {
	if len(run) != 10 || run[4] != '-' || run[7] != '-' {
		return false
	}
	for k := 0; k < len(run); k++ {
		if k != 4 && k != 7 && (run[k] < '0' || run[k] > '9') {
			return false
		}
	}
	return true
}

// luhn reports whether the digits pass the Luhn check.
func luhn(digits []byte) bool {
	sum := 0
	for k := len(digits) - 1; k >= 0; k-- {
		d := int(digits[k] - '0')
		if (len(digits)-1-k)%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}
