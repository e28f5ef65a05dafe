package expose

import (
	"bytes"
	"encoding/base32"
	"encoding/base64"
	"strings"
	"testing"
)

// FuzzBase32 holds appendBase32 to encoding/base32 with the same alphabet
// and no padding.
func FuzzBase32(f *testing.F) {
	for _, s := range []string{"", "f", "fo", "foo", "foob", "fooba", "foobar", "\xff\x00\x80"} {
		f.Add([]byte(s))
	}
	enc := base32.NewEncoding(base32Lower).WithPadding(base32.NoPadding)
	f.Fuzz(func(t *testing.T, src []byte) {
		if got, want := string(appendBase32(nil, src)), enc.EncodeToString(src); got != want {
			t.Fatalf("appendBase32(%x) = %q, want %q", src, got, want)
		}
	})
}

// FuzzBase64 holds decodeBase64 to what basicToken accepted before it:
// encoding/base64's StdEncoding, then RawStdEncoding, for text without
// line breaks (which encoding/base64 skips; basicToken's words hold none).
func FuzzBase64(f *testing.F) {
	for _, s := range []string{"", "QQ", "QQ==", "QQ=", "QUI=", "QUJD", "QR==", "Q", "QUJDRA", "a+/b", "ab=c", "====", "QQ==QQ==", "-_"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\r\n") {
			return
		}
		want, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			want, err = base64.RawStdEncoding.DecodeString(s)
		}
		got, ok := decodeBase64(s)
		if ok != (err == nil) || (ok && !bytes.Equal(got, want)) {
			t.Fatalf("decodeBase64(%q) = %x, %v; encoding/base64: %x, %v", s, got, ok, want, err)
		}
	})
}
