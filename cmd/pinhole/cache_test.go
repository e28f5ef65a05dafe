package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain keeps the tests' compiled modules out of the user's cache
// directory.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pinhole-cli-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv(envCacheDir, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestCacheDir(t *testing.T) {
	home := t.TempDir()
	for _, tc := range []struct {
		name, noCache, dir, want string
	}{
		{"default: the user cache directory", "", "", filepath.Join(home, "pinhole")},
		{"PINHOLE_CACHE_DIR", "", "/somewhere/else", "/somewhere/else"},
		{"PINHOLE_NO_CACHE=1", "1", "/somewhere/else", ""},
		{"PINHOLE_NO_CACHE=0 keeps it on", "0", "", filepath.Join(home, "pinhole")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_CACHE_HOME", home) // os.UserCacheDir on Linux and BSDs
			t.Setenv("HOME", home)           // and on macOS: $HOME/Library/Caches
			t.Setenv(envNoCache, tc.noCache)
			t.Setenv(envCacheDir, tc.dir)
			want := tc.want
			if d, err := os.UserCacheDir(); err == nil && tc.want != "" && tc.dir == "" {
				want = filepath.Join(d, "pinhole")
			}
			if got := cacheDir(); got != want {
				t.Errorf("cacheDir() = %q, want %q", got, want)
			}
		})
	}
}

// filesUnder counts the regular files under dir (0 when it is missing or
// not a directory).
func filesUnder(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && p != dir && d.Type().IsRegular() {
			n++
		}
		return nil
	})
	return n
}

// TestDiskCache: describe --wasm answers what the native core answers
// whether the cache directory is usable, off, or unusable; a usable one
// receives the compiled module, an off or unusable one is left alone.
func TestDiskCache(t *testing.T) {
	want := nativeDescribe(t, `{"op":"describe"}`)
	tmp := t.TempDir()
	notADir := filepath.Join(tmp, "file")
	if err := os.WriteFile(notADir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir, noCache string
		wantFiles          bool
	}{
		{"usable", filepath.Join(tmp, "cache"), "", true},
		{"off", filepath.Join(tmp, "off"), "1", false},
		{"under a file", filepath.Join(notADir, "cache"), "", false},
		{"a file", notADir, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(envCacheDir, tc.dir)
			t.Setenv(envNoCache, tc.noCache)
			for run := 1; run <= 2; run++ { // the second run reads the cache
				// A new process would start with no cache in memory: the
				// second run must read what the first wrote to disk.
				cachesMu.Lock()
				clear(caches)
				cachesMu.Unlock()
				code, out, errOut := runCLI("describe", "--manifest", ordersManifest, "--state", ordersState, "--key", key, "--wasm", wasmFile)
				if code != 0 || out != want {
					t.Fatalf("run %d: exit %d, stderr %q, stdout %.200q, want %.200q", run, code, errOut, out, want)
				}
			}
			if got := filesUnder(t, tc.dir) > 0; got != tc.wantFiles {
				t.Errorf("files in %s: %v, want %v", tc.dir, got, tc.wantFiles)
			}
		})
	}
}
