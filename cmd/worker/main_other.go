//go:build !js

package main

import (
	"flag"
	"log"
	"net/http"
	"os"
	"time"
)

// main serves the same handler natively, for local use and for comparing
// the Worker with the native core. The Worker itself is built with
// GOOS=js GOARCH=wasm (see README.md, `make worker`).
func main() {
	addr := flag.String("addr", "127.0.0.1:8787", "address to listen on")
	flag.Parse()
	log.Printf("pinhole worker (native build) on http://%s; configuration from PINHOLE_* environment variables", *addr)
	// Timeouts, so that connections that send nothing cannot hold the
	// reading budget (MaxReadingBytes) for good.
	srv := &http.Server{Addr: *addr, Handler: handlerFromEnv(os.Getenv),
		ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second}
	log.Fatal(srv.ListenAndServe())
}
