package jsonval

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// Append appends the canonical encoding of v to dst: no insignificant
// whitespace, members in document order, strings escaped by AppendString.
// Arrays and objects are written by functions of their own, so that this
// one, called for every value, stays small (see plainRun).
func Append(dst []byte, v *Value) []byte {
	switch {
	case v == nil || v.Kind == Null:
		return append(dst, "null"...)
	case v.Kind == Bool && v.B:
		return append(dst, "true"...)
	case v.Kind == Bool:
		return append(dst, "false"...)
	case v.Kind == Number:
		return append(dst, v.S...)
	case v.Kind == String:
		return AppendString(dst, v.S)
	case v.Kind == Array:
		return appendArray(dst, v)
	case v.Kind == Object:
		return appendObject(dst, v)
	}
	return append(dst, "null"...)
}

func appendArray(dst []byte, v *Value) []byte {
	dst = append(dst, '[')
	for i, it := range v.Items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = Append(dst, it)
	}
	return append(dst, ']')
}

func appendObject(dst []byte, v *Value) []byte {
	dst = append(dst, '{')
	for i, k := range v.Keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(AppendString(dst, k), ':')
		dst = Append(dst, v.Vals[i])
	}
	return append(dst, '}')
}

// plainASCII returns the length of s's leading run of ASCII that is
// written as it is (no '"', '\\' or control character). A small leaf, as
// plainRun explains.
func plainASCII(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return i
		}
	}
	return len(s)
}

// Marshal returns the canonical encoding of v.
func Marshal(v *Value) []byte { return Append(nil, v) }

// AppendString appends s as a JSON string, the one string escaping of
// everything the module writes (the wire's writer uses it too). Escaped:
// '"', '\\', control characters below U+0020 (\t, \n and \r by name, the
// rest as \u00XX), U+2028 and U+2029 (JavaScript line terminators) as
// \u2028 and \u2029, and each byte of invalid UTF-8 as \ufffd. Everything
// else, '<', '>', '&' and U+007F included, is written as it is.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := plainASCII(s)
	if start == len(s) {
		// The common case: nothing to escape.
		dst = append(dst, s...)
		return append(dst, '"')
	}
	return appendEscaped(append(dst, s[:start]...), s, start)
}

// appendEscaped is AppendString from s[start:] on, where the first byte to
// escape or decode is: a function of its own, so that the common case
// stays small.
func appendEscaped(dst []byte, s string, start int) []byte {
	for i := start; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
