package expose

// The two RFC 4648 encodings the package needs, written out rather than
// taken from encoding/base32 and encoding/base64: those build their tables
// in package initialisers, which every start of the module would run.

const base32Lower = "abcdefghijklmnopqrstuvwxyz234567"

// appendBase32 appends src in RFC 4648 base32, lower-case alphabet, no
// padding: the text of tokens.
func appendBase32(dst, src []byte) []byte {
	var acc uint64
	bits := 0
	for _, b := range src {
		acc = acc<<8 | uint64(b)
		bits += 8
		for bits >= 5 {
			bits -= 5
			dst = append(dst, base32Lower[acc>>bits&31])
		}
	}
	if bits > 0 {
		dst = append(dst, base32Lower[acc<<(5-bits)&31])
	}
	return dst
}

// base64Value returns the value of c in RFC 4648's standard base64
// alphabet, or -1.
func base64Value(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '+':
		return 62
	case c == '/':
		return 63
	}
	return -1
}

// decodeBase64 decodes s in RFC 4648's standard base64 alphabet, either
// padded with "=" to a multiple of four characters or not padded at all,
// as encoding/base64's StdEncoding and RawStdEncoding accept it (not
// strictly: unused low bits of the last character are ignored).
func decodeBase64(s string) ([]byte, bool) {
	n := len(s)
	if n > 0 && s[n-1] == '=' {
		if n%4 != 0 {
			return nil, false
		}
		n--
		if s[n-1] == '=' {
			n--
		}
	}
	if n%4 == 1 || (n < len(s) && n%4 == 0) {
		return nil, false
	}
	return appendBase64(make([]byte, 0, n*3/4), s[:n], false)
}

// appendBase64 appends to b the bytes the base64 digits s stand for (no
// padding; with url set, "-" and "_" read as "+" and "/", base64url's),
// and reports false for a character that is no digit.
func appendBase64(b []byte, s string, url bool) ([]byte, bool) {
	var acc uint32
	for i := 0; i < len(s); i++ {
		c := s[i]
		if url && c == '-' {
			c = '+'
		} else if url && c == '_' {
			c = '/'
		}
		v := base64Value(c)
		if v < 0 {
			return b, false
		}
		acc = acc<<6 | uint32(v)
		if i%4 == 3 {
			b = append(b, byte(acc>>16), byte(acc>>8), byte(acc))
			acc = 0
		}
	}
	switch len(s) % 4 {
	case 2:
		b = append(b, byte(acc>>4))
	case 3:
		b = append(b, byte(acc>>10), byte(acc>>2))
	}
	return b, true
}
