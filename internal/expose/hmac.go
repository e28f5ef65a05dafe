package expose

// The module derives tokens with HMAC-SHA256 (RFC 2104, FIPS 180-4),
// written out here instead of imported: crypto/sha256 brings Go's FIPS 140
// module with it (its self-checks, DRBG, AES, SHA-3 and SHA-512 code and, via
// its randomness, package os), about 150 KB of the module for a function of
// a hundred lines. hmac_test.go checks this code against crypto/hmac and
// crypto/sha256 on the standard test vectors and on random inputs, and
// FuzzHMAC keeps doing so.

var sha256K = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

func rotr(x uint32, n uint) uint32 { return x>>n | x<<(32-n) }

// sha256Sum returns the SHA-256 digest of the concatenation of parts.
func sha256Sum(parts ...[]byte) [32]byte {
	h := [8]uint32{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}
	var block [64]byte
	n, total := 0, 0
	feed := func(p []byte) {
		for len(p) > 0 {
			c := copy(block[n:], p)
			n, p, total = n+c, p[c:], total+c
			if n == 64 {
				sha256Block(&h, &block)
				n = 0
			}
		}
	}
	for _, p := range parts {
		feed(p)
	}
	bits := uint64(total) * 8
	pad := [72]byte{0x80}
	padLen := 56 - n
	if n >= 56 {
		padLen = 120 - n
	}
	for i := 0; i < 8; i++ { // big-endian; encoding/binary would import reflect
		pad[padLen+i] = byte(bits >> (56 - 8*i))
	}
	feed(pad[:padLen+8])
	var out [32]byte
	for i, v := range h {
		out[4*i], out[4*i+1], out[4*i+2], out[4*i+3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
	}
	return out
}

func sha256Block(h *[8]uint32, b *[64]byte) {
	var w [64]uint32
	for i := 0; i < 16; i++ {
		w[i] = uint32(b[4*i])<<24 | uint32(b[4*i+1])<<16 | uint32(b[4*i+2])<<8 | uint32(b[4*i+3])
	}
	for i := 16; i < 64; i++ {
		s0 := rotr(w[i-15], 7) ^ rotr(w[i-15], 18) ^ w[i-15]>>3
		s1 := rotr(w[i-2], 17) ^ rotr(w[i-2], 19) ^ w[i-2]>>10
		w[i] = w[i-16] + s0 + w[i-7] + s1
	}
	a, bb, c, d, e, f, g, hh := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
	for i := 0; i < 64; i++ {
		t1 := hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + (e&f ^ ^e&g) + sha256K[i] + w[i]
		t2 := (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + (a&bb ^ a&c ^ bb&c)
		hh, g, f, e, d, c, bb, a = g, f, e, d+t1, c, bb, a, t1+t2
	}
	h[0] += a
	h[1] += bb
	h[2] += c
	h[3] += d
	h[4] += e
	h[5] += f
	h[6] += g
	h[7] += hh
}

// hmacSHA256 returns HMAC-SHA256(key, concatenation of parts).
func hmacSHA256(key []byte, parts ...[]byte) [32]byte {
	if len(key) > 64 {
		k := sha256Sum(key)
		key = k[:]
	}
	var ipad, opad [64]byte
	copy(ipad[:], key)
	copy(opad[:], key)
	for i := range ipad {
		ipad[i] ^= 0x36
		opad[i] ^= 0x5c
	}
	inner := sha256Sum(append([][]byte{ipad[:]}, parts...)...)
	return sha256Sum(opad[:], inner[:])
}
