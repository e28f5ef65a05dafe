package main

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/tetratelabs/wazero"
)

// Compiled modules (--wasm) are cached on disk, so that a second run of
// the CLI skips compiling pinhole.wasm: under $PINHOLE_CACHE_DIR when set,
// else under the user's cache directory (os.UserCacheDir()/pinhole).
// PINHOLE_NO_CACHE=1 turns the disk cache off. A directory that cannot be
// created or written is not an error: compiled modules are then kept in
// memory for the life of the process only, as with the cache off.
const (
	envCacheDir = "PINHOLE_CACHE_DIR"
	envNoCache  = "PINHOLE_NO_CACHE"
)

var (
	cachesMu sync.Mutex
	caches   = map[string]wazero.CompilationCache{} // by directory, for the life of the process
)

// cacheDir is the directory of the disk cache, or "" when it is off or
// there is no user cache directory.
func cacheDir() string {
	if v := os.Getenv(envNoCache); v != "" && v != "0" {
		return ""
	}
	if d := os.Getenv(envCacheDir); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "pinhole")
}

// compilationCache returns the disk cache of cacheDir, or the in-memory
// one when the disk cache is off or its directory is unusable.
func compilationCache() wazero.CompilationCache {
	dir := cacheDir()
	if dir == "" {
		return compileCache
	}
	cachesMu.Lock()
	defer cachesMu.Unlock()
	if c, ok := caches[dir]; ok {
		return c
	}
	c := compileCache
	if writable(dir) {
		if dc, err := wazero.NewCompilationCacheWithDir(dir); err == nil {
			c = dc
		}
	}
	caches[dir] = c
	return c
}

// writable creates dir when missing and checks that a file can be written
// in it: wazero fails a compilation whose result it cannot store.
func writable(dir string) bool {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false
	}
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return false
	}
	name := f.Name()
	f.Close()
	return os.Remove(name) == nil
}
