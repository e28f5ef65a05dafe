package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkCLIDescribe runs `pinhole describe --wasm build/pinhole.wasm`
// on the orders example as a new process per operation, as a user does:
// with the disk cache off, with an empty cache directory (the first run,
// which compiles and stores), and with a filled one (every later run).
// Reported besides wall time: the process's CPU time (user + system).
func BenchmarkCLIDescribe(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "pinhole")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	args := []string{"describe", "--manifest", ordersManifest, "--state", ordersState, "--key", key, "--wasm", wasmFile}
	warm := b.TempDir()
	runOnce := func(b *testing.B, env ...string) time.Duration {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	for _, tc := range []struct {
		name string
		env  func(b *testing.B) []string
	}{
		{"no-cache", func(*testing.B) []string { return []string{envNoCache + "=1"} }},
		{"cold-cache", func(b *testing.B) []string { return []string{envCacheDir + "=" + b.TempDir()} }},
		{"warm-cache", func(*testing.B) []string { return []string{envCacheDir + "=" + warm} }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			if tc.name == "warm-cache" {
				runOnce(b, tc.env(b)...) // fills the cache
			}
			var cpu time.Duration
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				env := tc.env(b)
				b.StartTimer()
				cpu += runOnce(b, env...)
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}
