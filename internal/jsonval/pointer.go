package jsonval

import (
	"errors"
	"strings"
)

// Pointer is a parsed RFC 6901 JSON Pointer: the unescaped reference tokens.
// The empty Pointer refers to the whole document.
type Pointer []string

// ParsePointer parses s ("" or "/a/b~1c"). It rejects a missing leading
// slash and "~" not followed by "0" or "1".
func ParsePointer(s string) (Pointer, error) {
	p, _, err := AppendPointer(make([]string, 0, PointerTokens(s)), s)
	return p, err
}

// PointerTokens returns how many reference tokens the pointer text s holds.
func PointerTokens(s string) int {
	return strings.Count(s, "/")
}

// AppendPointer parses s as ParsePointer does, appending its tokens to buf
// (which does not grow when it has room for PointerTokens(s) more): it
// returns the pointer, a slice of buf with its capacity capped, and buf.
// A caller that parses many pointers carves them out of one buffer.
func AppendPointer(buf []string, s string) (Pointer, []string, error) {
	if s == "" {
		return Pointer{}, buf, nil // the whole document: empty, never nil
	}
	if s[0] != '/' {
		return nil, buf, errors.New("a JSON Pointer must be empty or start with '/'")
	}
	start := len(buf)
	for rest := s[1:]; ; {
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			buf = append(buf, rest)
			break
		}
		buf = append(buf, rest[:i])
		rest = rest[i+1:]
	}
	for i := start; i < len(buf); i++ {
		if strings.IndexByte(buf[i], '~') < 0 {
			continue
		}
		t, ok := unescapeToken(buf[i])
		if !ok {
			return nil, buf[:start], errors.New("'~' in a JSON Pointer must be followed by '0' or '1'")
		}
		buf[i] = t
	}
	return Pointer(buf[start:len(buf):len(buf)]), buf, nil
}

// unescapeToken turns "~1" into "/" and "~0" into "~"; ok is false for any
// other "~".
func unescapeToken(t string) (string, bool) {
	b := make([]byte, 0, len(t))
	for j := 0; j < len(t); j++ {
		if t[j] != '~' {
			b = append(b, t[j])
			continue
		}
		if j+1 >= len(t) || (t[j+1] != '0' && t[j+1] != '1') {
			return "", false
		}
		if t[j+1] == '0' {
			b = append(b, '~')
		} else {
			b = append(b, '/')
		}
		j++
	}
	return string(b), true
}

// String returns the pointer in its escaped text form.
func (p Pointer) String() string {
	if len(p) == 1 {
		return "/" + EscapeToken(p[0])
	}
	var b []byte
	for _, t := range p {
		b = AppendToken(append(b, '/'), t)
	}
	return string(b)
}

// EscapeToken returns a reference token as a pointer writes it: "~" as "~0"
// and "/" as "~1".
func EscapeToken(t string) string {
	if strings.IndexByte(t, '~') < 0 && strings.IndexByte(t, '/') < 0 {
		return t
	}
	return string(AppendToken(nil, t))
}

// AppendToken appends the escaped form of a reference token to b.
func AppendToken(b []byte, t string) []byte {
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '~':
			b = append(b, '~', '0')
		case '/':
			b = append(b, '~', '1')
		default:
			b = append(b, t[i])
		}
	}
	return b
}

// ArrayIndex parses a reference token as an array index, as RFC 6901 §4
// writes one: "0", or decimal digits without a leading zero. A sign
// ("+1", "-0"), a leading zero ("01"), spaces or any other character make
// it no index; so does "-", which only the last token of an RFC 6902 add
// (or the target of a move or copy) may use, for the end of an array, and
// which callers check for themselves. Indices beyond 999,999,999 are
// refused; no array is that long.
func ArrayIndex(tok string) (int, bool) {
	if tok == "" || len(tok) > 9 || (len(tok) > 1 && tok[0] == '0') {
		return 0, false
	}
	n := 0
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// Resolve returns the value p refers to inside v, or nil when it does not
// exist.
func (p Pointer) Resolve(v *Value) *Value {
	for _, tok := range p {
		if v == nil {
			return nil
		}
		switch v.Kind {
		case Object:
			v = v.Get(tok)
		case Array:
			i, ok := ArrayIndex(tok)
			if !ok || i >= len(v.Items) {
				return nil
			}
			v = v.Items[i]
		default:
			return nil
		}
	}
	return v
}
