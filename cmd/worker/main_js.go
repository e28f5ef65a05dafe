//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
)

// main serves the handler in the Worker. syumai/workers starts a fresh Go
// instance for every request, so the environment is read per request.
func main() {
	workers.Serve(handlerFromEnv(workerEnv))
}

// workerEnv returns a Worker var or secret as a string, "" when unset or
// not a string binding.
func workerEnv(name string) string {
	v := cloudflare.GetBinding(name)
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}
