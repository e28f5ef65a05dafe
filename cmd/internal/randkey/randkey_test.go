package randkey

import (
	"bytes"
	"testing"
)

// TestFill: two keys drawn in a row differ and are not all zero.
func TestFill(t *testing.T) {
	a, b := make([]byte, 32), make([]byte, 32)
	if err := Fill(a); err != nil {
		t.Fatal(err)
	}
	if err := Fill(b); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, b) || bytes.Equal(a, make([]byte, 32)) {
		t.Errorf("keys %x and %x", a, b)
	}
}
