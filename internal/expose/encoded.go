package expose

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The net also judges a string with one layer of an encoding undone, the
// encodings a reader undoes at a glance or with one call: percent-escapes
// (%67%68%70…) and quoted-printable ones (=67=68…), HTML character
// references (&#103;, &#x67;, &amp;; numeric ones without their ";" too),
// \u, \x and octal escapes written as text, words of base64 (also
// base64url and after a data: URL's "base64,"), base32 or hex that decode
// to text, base64 in groups of four, and character codes written as numbers
// (67 68 70, 103,104,112, U+0067). A key written with accents (a combining
// mark after every character, or precomposed letters) does not hide
// either. The decoded text is judged as any string is, but not decoded
// again.

// minEncodedRun is the shortest base64 or hex word decoded: 16 characters
// hold 12 bytes of base64 or 8 of hex, less than any key the net catches.
const minEncodedRun = 16

// maxDecodedRuns bounds the words decoded in one string, so that a long
// text of words costs a bounded number of decodings (each is linear).
const maxDecodedRuns = 256

// decodedCredential reports whether s (already normalised) holds a
// credential once an encoding is undone, or once the accents of original
// (the string before normalize) are taken off. One pass finds what there is
// to undo; most strings have nothing.
func decodedCredential(original, s string) bool {
	escapes, words := false, false
	run, digits, quads := 0, 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isDigit(c) {
			digits++
		}
		if encodedByte(c) {
			run++
			words = words || run >= minEncodedRun
			continue
		}
		if run == 4 && c == ' ' {
			quads++
		}
		run = 0
		escapes = escapes || c == '%' || c == '&' || c == '\\' || c == '='
	}
	if escapes {
		if u, ok := unescape(s); ok && judgedDecoded(u, true) {
			return true
		}
	}
	// Without its accents, a text is judged by the net's rules but not as a
	// random word: words of a language written with accents run together
	// into one long word of letters ("NhânViên…" → "NhanVien…").
	if d, ok := withoutAccents(original); ok && judgedDecoded(d, false) {
		return true
	}
	return words && encodedWord(s) || quads >= minGroups-1 && groupedBase64(s) ||
		digits >= minCodes && codeList(s)
}

// minGroups is the fewest groups of four base64 characters groupedBase64
// joins, minCodes the fewest character codes codeList reads: as many
// characters as the shortest encoded word (minEncodedRun) decodes to.
const (
	minGroups = minEncodedRun / 4
	minCodes  = minEncodedRun * 3 / 4
)

// groupedBase64 reports whether s holds base64 written in groups of four
// characters with one blank between them ("Z2hw X1I4 Zmtx …", the last
// group shorter or padded), minGroups groups or more, that decodes to text
// holding a credential.
func groupedBase64(s string) bool {
	var buf [4 * maxBody]byte
	joined, groups := buf[:0], 0
	for i := 0; i <= len(s); {
		j := len(s)
		if k := strings.IndexByte(s[i:], ' '); k >= 0 {
			j = i + k
		}
		f := s[i:j]
		w := strings.TrimRight(f, "=")
		group := len(w) > 0 && len(w) <= 4 && encodedRun(w)
		if group {
			joined, groups = append(joined, w...), groups+1
		}
		// A word that is no group, a short or padded group, or the end of s
		// ends the groups.
		if !group || len(f) < 4 || len(w) < len(f) || j == len(s) {
			if groups >= minGroups && decodesToCredential(string(joined), 0) {
				return true
			}
			joined, groups = joined[:0], 0
		}
		i = j + 1
	}
	return false
}

// encodedRun reports whether every byte of w is a base64 (or base64url)
// character.
func encodedRun(w string) bool {
	for i := 0; i < len(w); i++ {
		if !encodedByte(w[i]) {
			return false
		}
	}
	return true
}

// codeList reports whether s holds minCodes or more character codes
// written as numbers between blanks, commas, colons or semicolons, that
// decode to text the net's rules catch (not judged as a random word: a
// list of numbers decodes to letters that look random): hex bytes
// ("67 68 70", "0x67, 0x68", "67:68:70", "\x67 \x68"), decimal codes of
// printable ASCII ("103,104,112"), octal escapes ("\147 \150"), and code
// points ("U+0067 U+0068").
func codeList(s string) bool {
	var hexBuf, decBuf [4 * maxBody]byte
	hexText, decText := hexBuf[:0], decBuf[:0]
	hexOK, decOK, n := true, true, 0
	for i := 0; i <= len(s); i++ {
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != ',' && s[j] != ':' && s[j] != ';' {
			j++
		}
		if j == i {
			continue // a separator after a separator
		}
		h, d, ok := charCode(s[i:j])
		// A code the run cannot take ends it (a word, or a code of the
		// other kind), and the run is judged.
		if !ok || !(hexOK && h >= 0 || decOK && d >= 0) {
			if codesJudged(hexText, decText, hexOK, decOK, n) {
				return true
			}
			hexText, decText, hexOK, decOK, n = hexText[:0], decText[:0], true, true, 0
		}
		if ok {
			hexOK, decOK, n = hexOK && h >= 0, decOK && d >= 0, n+1
			if h >= 0 {
				hexText = utf8.AppendRune(hexText, h)
			}
			if d >= 0 {
				decText = append(decText, byte(d))
			}
		}
		i = j
	}
	return codesJudged(hexText, decText, hexOK, decOK, n)
}

// codesJudged reports whether a run of n codes is long enough and, read as
// hex (when hexOK) or decimal (when decOK), decodes to text the net's
// rules catch.
func codesJudged(hexText, decText []byte, hexOK, decOK bool, n int) bool {
	return n >= minCodes && (hexOK && judgedDecoded(string(hexText), false) || decOK && judgedDecoded(string(decText), false))
}

// charCode reads one character code: as hex (a byte of two hex digits, with
// "0x" or "\x" before it or not, "U+" and four to six hex digits, or "\"
// and three octal digits) and as a decimal code of printable ASCII (two or
// three digits). Either is -1 when f is not one; ok is false when f is
// neither.
func charCode(f string) (hex, dec rune, ok bool) {
	hex, dec = -1, -1
	switch {
	case len(f) == 4 && (f[:2] == "0x" || f[:2] == "0X" || f[:2] == `\x`) && isHex(f[2]) && isHex(f[3]):
		hex = rune(hexByte(f[2], f[3]))
	case len(f) >= 6 && len(f) <= 8 && (f[:2] == "U+" || f[:2] == "u+"):
		var r rune
		for i := 2; i < len(f); i++ {
			if !isHex(f[i]) {
				return -1, -1, false
			}
			r = r<<4 | rune(hexValue(f[i]))
		}
		if r <= unicode.MaxRune && (r < 0xd800 || r >= 0xe000) {
			hex = r
		}
	case len(f) == 4 && octalEscape(f):
		hex = rune(f[1]-'0')<<6 | rune(f[2]-'0')<<3 | rune(f[3]-'0')
	default:
		if len(f) == 2 && isHex(f[0]) && isHex(f[1]) {
			hex = rune(hexByte(f[0], f[1]))
		}
		if (len(f) == 2 || len(f) == 3) && isDigit(f[0]) && isDigit(f[1]) && (len(f) == 2 || isDigit(f[2])) {
			if v, _ := strconv.Atoi(f); v >= 32 && v < 127 {
				dec = rune(v)
			}
		}
	}
	return hex, dec, hex >= 0 || dec >= 0
}

// judgedDecoded is IsCredential's judgement of a decoded text, which is not
// decoded again: valid UTF-8 text with no controls but blanks; random
// words count when random is set.
func judgedDecoded(s string, random bool) bool {
	if len(s) < 8 || !controlFree(s) || !utf8.ValidString(s) {
		return false
	}
	s = normalize(s)
	return len(s) >= 8 && (scan(s) || setCookieValue(s) || random && randomWord(s))
}

// unescape undoes the percent-escapes, quoted-printable escapes ("=67",
// upper-case hex as RFC 2045 writes them, in runs of two or more), HTML
// character references and \u, \x and octal ("\147") escapes of s, and
// reports whether it undid at least two (one "%20" or "&amp;" in a sentence
// is no encoding of a key). Nothing is allocated for fewer.
func unescape(s string) (string, bool) {
	first := strings.IndexAny(s, `%&\=`)
	if first < 0 {
		return "", false
	}
	n := 0
	for i, qp := first, false; i < len(s) && n < 2; {
		_, _, size, isQP := escapeAt(s, i, qp)
		if size == 0 {
			i, qp = i+1, false
			continue
		}
		i, qp = i+size, isQP
		if size > 0 && !isSoftBreak(s[i-size:i]) {
			n++
		}
	}
	if n < 2 {
		return "", false
	}
	b := make([]byte, 0, len(s))
	last := 0
	for i, qp := first, false; i < len(s); {
		by, r, size, isQP := escapeAt(s, i, qp)
		if size == 0 {
			i, qp = i+1, false
			continue
		}
		b = append(b, s[last:i]...)
		switch {
		case by >= 0:
			b = append(b, byte(by))
		case r >= 0:
			b = utf8.AppendRune(b, r)
		}
		i, qp = i+size, isQP
		last = i
	}
	return string(append(b, s[last:]...)), true
}

// escapeAt reads the escape at s[i]: a byte (a percent, quoted-printable,
// \x or octal escape's, which may be part of a UTF-8 sequence) or else a
// rune (-1 for neither: a soft line break), and its length, 0 when there
// is none. inQP says that a quoted-printable escape ended at i: "=XX"
// counts only next to another (one "=4A" in "key=4A…" is a value), and
// "=" before a line break is a soft line break only inside such a run.
// qp reports whether the escape read is quoted-printable.
func escapeAt(s string, i int, inQP bool) (by int, r rune, size int, qp bool) {
	by, r = -1, -1
	switch s[i] {
	case '%':
		if i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			return hexByte(s[i+1], s[i+2]), -1, 3, false
		}
	case '=':
		if i+2 < len(s) && upperHex(s[i+1]) && upperHex(s[i+2]) && (inQP || qpEscape(s[i+3:])) {
			return hexByte(s[i+1], s[i+2]), -1, 3, true
		}
		if inQP && isSoftBreak(s[i:min(i+3, len(s))]) {
			return -1, -1, len(softBreak(s[i:])), true
		}
	case '\\':
		switch {
		case i+3 < len(s) && s[i+1] == 'x' && isHex(s[i+2]) && isHex(s[i+3]):
			return hexByte(s[i+2], s[i+3]), -1, 4, false
		case i+1 < len(s) && s[i+1] == 'u':
			r, size = uEscape(s[i:])
			return -1, r, size, false
		case i+3 < len(s) && octalEscape(s[i:i+4]):
			return int(s[i+1]-'0')<<6 | int(s[i+2]-'0')<<3 | int(s[i+3]-'0'), -1, 4, false
		}
	case '&':
		r, size = charRef(s[i:])
		return -1, r, size, false
	}
	return -1, -1, 0, false
}

// qpEscape reports whether s starts with a quoted-printable escape, or a
// soft line break and one.
func qpEscape(s string) bool {
	s = s[len(softBreak(s)):]
	return len(s) >= 3 && s[0] == '=' && upperHex(s[1]) && upperHex(s[2])
}

// softBreak returns the soft line break s starts with ("=\r\n" or "=\n"),
// or "".
func softBreak(s string) string {
	switch {
	case strings.HasPrefix(s, "=\r\n"):
		return s[:3]
	case strings.HasPrefix(s, "=\n"):
		return s[:2]
	}
	return ""
}

// isSoftBreak reports whether s starts with a soft line break.
func isSoftBreak(s string) bool { return softBreak(s) != "" }

// hexByte returns the byte two hex digits write.
func hexByte(hi, lo byte) int { return hexValue(hi)<<4 | hexValue(lo) }

func hexValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// uEscape reads a \uXXXX escape (a surrogate pair as two) at the start of
// s: the rune and the bytes read, 0 if there is none. A lone surrogate
// reads as U+FFFD, as the module's JSON parser reads it.
func uEscape(s string) (rune, int) {
	hex4 := func(s string) (rune, bool) {
		if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
			return 0, false
		}
		var r rune
		for i := 2; i < 6; i++ {
			if !isHex(s[i]) {
				return 0, false
			}
			r = r<<4 | rune(hexValue(s[i]))
		}
		return r, true
	}
	r, ok := hex4(s)
	if !ok {
		return 0, 0
	}
	if r >= 0xd800 && r < 0xdc00 {
		if lo, ok := hex4(s[6:]); ok && lo >= 0xdc00 && lo < 0xe000 {
			return 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00), 12
		}
	}
	if r >= 0xd800 && r < 0xe000 {
		return utf8.RuneError, 6
	}
	return r, 6
}

// charRef reads an HTML character reference at the start of s ("&#103;",
// "&#x67;", or one of the five XML names): the rune and the bytes read, 0
// if there is none. A numeric one may lack its ";" ("&#103&#104"), as
// browsers read it.
func charRef(s string) (rune, int) {
	if len(s) > 2 && s[1] == '#' {
		return numericRef(s)
	}
	end := strings.IndexByte(s[:min(len(s), 12)], ';')
	if end < 3 {
		return 0, 0
	}
	switch s[1:end] {
	case "amp":
		return '&', end + 1
	case "lt":
		return '<', end + 1
	case "gt":
		return '>', end + 1
	case "quot":
		return '"', end + 1
	case "apos":
		return '\'', end + 1
	}
	return 0, 0
}

// numericRef reads "&#" and decimal digits, or "&#x" and hex digits, then
// the ";" if there is one: the rune and the bytes read, 0 if there are no
// digits, or more than eight after the leading zeros (browsers read any
// number of those; up to 24 are read here).
func numericRef(s string) (rune, int) {
	i, base := 2, rune(10)
	if i < len(s) && (s[i] == 'x' || s[i] == 'X') {
		i, base = i+1, 16
	}
	start := i
	for i < len(s) && i-start < 24 && s[i] == '0' {
		i++
	}
	zeros := i
	var r rune
	for ; i < len(s) && i-zeros <= 8 && (base == 10 && isDigit(s[i]) || base == 16 && isHex(s[i])); i++ {
		r = r*base + rune(hexValue(s[i]))
	}
	if i == start || i-zeros > 8 {
		return 0, 0
	}
	if i < len(s) && s[i] == ';' {
		i++
	}
	if r > unicode.MaxRune || r >= 0xd800 && r < 0xe000 {
		r = utf8.RuneError
	}
	return r, i
}

// octalEscape reports whether e is a backslash and three octal digits of
// a byte (\000 to \377).
func octalEscape(e string) bool {
	return e[0] == '\\' && e[1] >= '0' && e[1] <= '3' && e[2] >= '0' && e[2] <= '7' && e[3] >= '0' && e[3] <= '7'
}

// upperHex reports whether c is a digit or one of A to F.
func upperHex(c byte) bool { return isDigit(c) || c >= 'A' && c <= 'F' }

// withoutAccents returns s with its combining marks dropped and its
// precomposed Latin letters written as the ASCII letter they decompose to
// (base_table.go, from the Unicode Character Database), and whether that
// changed a word of 8 bytes or more (shorter ones hold no key the net
// catches). fold reads a mark as a blank, which parts a key written with a
// mark after each character ("g\u0301h\u0301p\u0301_…"), and keeps a
// precomposed letter, which hides a key written in accented letters
// ("ǵḣṕ_…", the same text in its composed form); read without them, either
// is whole. Nothing is allocated unless such a word changes.
func withoutAccents(s string) (string, bool) {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return "", false
	}
	// First, whether a long word changes: the words of s as they will be
	// written, measured in bytes.
	long, word, changed := false, 0, false
	for _, r := range s {
		switch base, mark := accentOf(r); {
		case r < utf8.RuneSelf && isSpace(byte(r)):
			long, word, changed = long || changed && word >= 8, 0, false
		case mark:
			changed = true
		case base != 0:
			word, changed = word+1, true
		default:
			word += utf8.RuneLen(r)
		}
	}
	if !long && !(changed && word >= 8) {
		return "", false
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for _, r := range s[i:] {
		switch base, mark := accentOf(r); {
		case mark:
		case base != 0:
			b = append(b, base)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b), true
}

// accentOf says what withoutAccents makes of r: the ASCII letter it
// decomposes to, or that it is a combining mark, to be dropped.
func accentOf(r rune) (base byte, mark bool) {
	switch {
	case r < 0x300:
		return baseLetter(r), false
	case r < 0x370: // Combining Diacritical Marks, all of them nonspacing
		return 0, true
	case plainLetter(r): // Cyrillic, CJK, Hangul: none of either
		return 0, false
	}
	return baseLetter(r), unicode.Is(unicode.Mn, r)
}

// baseLetter returns the ASCII letter whose canonical decomposition is r
// followed by combining marks only (á, ấ, ḱ, the Kelvin sign), or 0.
func baseLetter(r rune) byte {
	switch {
	case r >= 0xc0 && r < 0xc0+rune(len(latinBase)):
		return latinBase[r-0xc0]
	case r >= 0x1e00 && r < 0x1e00+rune(len(latinExtraBase)):
		return latinExtraBase[r-0x1e00]
	case r >= 0x212a && r < 0x212a+rune(len(letterlikeBase)):
		return letterlikeBase[r-0x212a]
	}
	return 0
}

// encodedWord reports whether a word of s, base64 (or base64url), base32
// or hex of minEncodedRun or more characters, decodes to text that holds a
// credential.
func encodedWord(s string) bool {
	runs := 0
	for i := 0; i < len(s) && runs < maxDecodedRuns; {
		for i < len(s) && !encodedByte(s[i]) {
			i++
		}
		j := i
		for j < len(s) && encodedByte(s[j]) {
			j++
		}
		end := j
		for end < len(s) && end-j < 2 && s[end] == '=' {
			end++
		}
		if j-i >= minEncodedRun && j-i <= 4*maxBody {
			runs++
			if decodesToCredential(s[i:j], end-j) {
				return true
			}
		}
		i = end
	}
	return false
}

// decodesToCredential decodes w as hex (an even run of hex digits), as
// base64 (either alphabet, pad the "=" that followed it) or, when that is
// no text, as base32 (RFC 4648, upper or lower case), and judges the text.
// Nothing is allocated for a word that decodes to no text.
func decodesToCredential(w string, pad int) bool {
	var buf [3 * maxBody]byte
	if len(w)%2 == 0 && pad == 0 && hexWord(w) && strings.IndexByte(w, '-') < 0 {
		b := buf[:0]
		for k := 0; k < len(w); k += 2 {
			b = append(b, byte(hexByte(w[k], w[k+1])))
		}
		return text(b) && judgedDecoded(string(b), true)
	}
	if b, ok := appendBase64Word(buf[:0], w, pad); ok && text(b) {
		return judgedDecoded(string(b), true)
	}
	b, ok := appendBase32Word(buf[:0], w)
	return ok && text(b) && judgedDecoded(string(b), true)
}

// appendBase32Word appends what w decodes to as base32 (RFC 4648's
// alphabet, its letters all upper or all lower case, the "=" padding left
// out), and whether w is such a word.
func appendBase32Word(b []byte, w string) ([]byte, bool) {
	lower := strings.IndexFunc(w, func(r rune) bool { return r >= 'a' && r <= 'z' }) >= 0
	var acc uint32
	bits := 0
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 'A' && c <= 'Z' && !lower:
			c -= 'A'
		case c >= 'a' && c <= 'z' && lower:
			c -= 'a'
		case c >= '2' && c <= '7':
			c = c - '2' + 26
		default:
			return b, false
		}
		acc, bits = acc<<5|uint32(c), bits+5
		if bits >= 8 {
			bits -= 8
			b = append(b, byte(acc>>bits))
		}
	}
	return b, true
}

// appendBase64Word appends the bytes base64 word w decodes to, in the
// standard or the URL alphabet (not both), with pad "=" after it or none.
func appendBase64Word(b []byte, w string, pad int) ([]byte, bool) {
	if strings.ContainsAny(w, "+/") && strings.ContainsAny(w, "-_") || len(w)%4 == 1 || pad > 0 && (len(w)+pad)%4 != 0 {
		return b, false
	}
	return appendBase64(b, w, true)
}

// encodedByte reports whether c can be part of a base64, base64url or hex
// word.
func encodedByte(c byte) bool { return base64Byte(c) || c == '-' || c == '_' }

// text reports whether b is UTF-8 text with no controls but blanks.
func text(b []byte) bool { return controlFree(b) && utf8.Valid(b) }

// controlFree reports whether s holds no control character but tab and
// line breaks.
func controlFree[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			return false
		}
	}
	return true
}
