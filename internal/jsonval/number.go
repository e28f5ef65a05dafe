package jsonval

import (
	"strconv"
	"strings"
)

// CompareNumbers compares two valid JSON number literals exactly, as
// decimals: -1, 0 or +1 as a is less than, equal to or greater than b. "1",
// "1.0", "10e-1" and "0.1E1" are the same number; 9007199254740993 and
// 9007199254740992, one float64, are not; neither are 1e400 and 1e500,
// both +Inf as float64. Equal, JSON Schema's minimum and maximum, and
// JSON Patch's test compare numbers this way.
func CompareNumbers(a, b string) int {
	x, y := decimalOf(a), decimalOf(b)
	switch {
	case x.neg != y.neg:
		if x.neg {
			return -1
		}
		return 1
	case x.neg:
		return -x.magnitude(y)
	}
	return x.magnitude(y)
}

// Integral reports whether v is a number with no fractional part, however
// it is written (1, 1.0, 1e2, 1e400), as JSON Schema counts integers.
func (v *Value) Integral() bool {
	if v == nil || v.Kind != Number {
		return false
	}
	d := decimalOf(v.S)
	if d.digits == "" {
		return true // zero
	}
	if d.exp[0] == '-' || d.exp == "0" {
		return false // a nonzero value below 1 in magnitude
	}
	if len(d.exp) > 9 {
		return true // more places before the point than a literal can have digits
	}
	n, _ := strconv.Atoi(d.exp)
	return len(d.digits) <= n
}

// decimal is a number as sign, significant digits (no leading or trailing
// zeros; "" for zero, whose sign is dropped) and the power of ten of the
// place just left of the first digit, as a signed decimal integer with no
// leading zeros (exponents may be longer than any machine integer):
// the number is 0.d1d2… × 10^exp.
type decimal struct {
	neg    bool
	digits string
	exp    string
}

// magnitude compares |d| with |e|.
func (d decimal) magnitude(e decimal) int {
	switch {
	case d.digits == "" || e.digits == "":
		return cmpInt(len(d.digits), len(e.digits)) // zero against anything
	}
	if c := compareIntText(d.exp, e.exp); c != 0 {
		return c
	}
	// Same scale: the digits decide; with one a prefix of the other, the
	// longer is larger (no trailing zeros).
	return strings.Compare(d.digits, e.digits)
}

// decimalOf reads a valid JSON number literal.
func decimalOf(s string) decimal {
	var d decimal
	if s != "" && s[0] == '-' {
		d.neg, s = true, s[1:]
	}
	mant, e := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, e = s[:i], s[i+1:]
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	all := intPart + frac
	lead := len(all) - len(strings.TrimLeft(all, "0"))
	d.digits = strings.TrimRight(all[lead:], "0")
	if d.digits == "" {
		return decimal{} // zero, either sign, any exponent
	}
	d.exp = addIntText(e, len(intPart)-lead)
	return d
}

// addIntText returns the signed decimal integer text e (a JSON exponent:
// optional sign, digits, possibly empty) plus n, with no leading zeros.
func addIntText(e string, n int) string {
	neg := false
	if e != "" && (e[0] == '-' || e[0] == '+') {
		neg, e = e[0] == '-', e[1:]
	}
	e = strings.TrimLeft(e, "0")
	if len(e) <= 15 {
		v, _ := strconv.ParseInt("0"+e, 10, 64)
		if neg {
			v = -v
		}
		return strconv.FormatInt(v+int64(n), 10)
	}
	// |e| ≥ 10^15 outweighs n (a literal's length): the sign stays e's, and
	// the magnitude moves by n, up if it has e's sign, down otherwise.
	if n < 0 == neg {
		e = addDigits(e, uint64(max(n, -n)))
	} else {
		e = subDigits(e, uint64(max(n, -n)))
	}
	if neg {
		return "-" + e
	}
	return e
}

// addDigits returns the digits d plus n.
func addDigits(d string, n uint64) string {
	b := []byte(d)
	for i := len(b) - 1; n > 0 && i >= 0; i-- {
		v := uint64(b[i]-'0') + n%10
		n /= 10
		if v >= 10 {
			v -= 10
			n++
		}
		b[i] = byte('0' + v)
	}
	if n > 0 {
		return strconv.FormatUint(n, 10) + string(b)
	}
	return string(b)
}

// subDigits returns the digits d minus n, for d > n.
func subDigits(d string, n uint64) string {
	b := []byte(d)
	borrow := uint64(0)
	for i := len(b) - 1; (n > 0 || borrow > 0) && i >= 0; i-- {
		sub := n%10 + borrow
		n /= 10
		v := uint64(b[i] - '0')
		if v < sub {
			v += 10
			borrow = 1
		} else {
			borrow = 0
		}
		b[i] = byte('0' + v - sub)
	}
	return strings.TrimLeft(string(b), "0")
}

// compareIntText compares two signed decimal integers written without
// leading zeros.
func compareIntText(a, b string) int {
	an, bn := a[0] == '-', b[0] == '-'
	switch {
	case an != bn:
		if an {
			return -1
		}
		return 1
	case an:
		return -compareDigits(a[1:], b[1:])
	}
	return compareDigits(a, b)
}

// compareDigits compares two unsigned decimal integers without leading
// zeros.
func compareDigits(a, b string) int {
	if c := cmpInt(len(a), len(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
