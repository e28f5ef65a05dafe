// Package randkey is the session-key source of the programs in cmd/ that
// run the core natively (the CLI and the Worker). The core imports no
// randomness, which keeps crypto/rand out of the module; a native host
// hands this function to session.NewWithRandom instead.
package randkey

import "crypto/rand"

// Fill fills b from crypto/rand: a session key for a load that brings none.
func Fill(b []byte) error {
	_, err := rand.Read(b)
	return err
}
