package expose

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

func want(key []byte, parts ...[]byte) []byte {
	m := hmac.New(sha256.New, key)
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(nil)
}

func TestSHA256Vectors(t *testing.T) {
	for _, tc := range []struct{ in, hex string }{
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	} {
		got := sha256Sum([]byte(tc.in))
		if hex.EncodeToString(got[:]) != tc.hex {
			t.Errorf("sha256(%q) = %x", tc.in, got)
		}
	}
	// RFC 4231 test case 2.
	got := hmacSHA256([]byte("Jefe"), []byte("what do ya want for nothing?"))
	if hex.EncodeToString(got[:]) != "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" {
		t.Errorf("HMAC RFC 4231 case 2 = %x", got)
	}
}

// TestHMACMatchesStandardLibrary compares every length around the block
// boundaries and long keys with crypto/hmac.
func TestHMACMatchesStandardLibrary(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 300)
	for i := range buf {
		buf[i] = byte(r.Uint32())
	}
	for klen := 0; klen <= 130; klen += 13 {
		for mlen := 0; mlen <= 200; mlen++ {
			key, msg := buf[:klen], buf[100:100+mlen]
			got := hmacSHA256(key, msg[:mlen/2], msg[mlen/2:])
			if w := want(key, msg); string(got[:]) != string(w) {
				t.Fatalf("key %d, msg %d: got %x want %x", klen, mlen, got, w)
			}
		}
	}
}

func FuzzHMAC(f *testing.F) {
	f.Add([]byte("key"), []byte("value"))
	f.Add(make([]byte, 64), make([]byte, 55))
	f.Fuzz(func(t *testing.T, key, msg []byte) {
		got := hmacSHA256(key, msg)
		if w := want(key, msg); string(got[:]) != string(w) {
			t.Fatalf("got %x want %x", got, w)
		}
	})
}
