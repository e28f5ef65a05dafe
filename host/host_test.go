package host

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"

	"github.com/pinholectx/pinhole/internal/addrfold"
	"github.com/pinholectx/pinhole/internal/datamerge"
	"github.com/pinholectx/pinhole/internal/session"
	"github.com/pinholectx/pinhole/internal/wire"
)

// wasmPath is the module `make wasm` builds; `make test` builds it first.
var wasmPath = filepath.Join("..", "build", "pinhole.wasm")

var shared struct {
	once  sync.Once
	cache wazero.CompilationCache // makes a second Compile cheap
	mod   *Module
	err   error
}

// testModule compiles build/pinhole.wasm once per test binary.
func testModule(tb testing.TB) *Module {
	tb.Helper()
	shared.once.Do(func() {
		wasm, err := os.ReadFile(wasmPath)
		if err != nil {
			shared.err = errors.New("build/pinhole.wasm is missing (run make wasm): " + err.Error())
			return
		}
		shared.cache = wazero.NewCompilationCache()
		shared.mod, shared.err = Compile(context.Background(), wasm, WithCompilationCache(shared.cache))
	})
	if shared.err != nil {
		tb.Fatal(shared.err)
	}
	return shared.mod
}

func newSession(tb testing.TB) *Session {
	tb.Helper()
	s, err := testModule(tb).NewSession(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close(context.Background()) })
	return s
}

func readFile(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

const testKey = "host-test-key-0123456789"

func TestOrdersMatchNative(t *testing.T) {
	ctx := context.Background()
	man, state := readFile(t, "orders/manifest.json"), readFile(t, "orders/state.json")
	s := newSession(t)
	native := session.New()

	step := func(name string, got []byte, err error, req string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := native.Call([]byte(req))
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: wazero and native differ\nwazero: %s\nnative: %s", name, got, want)
		}
	}
	out, err := s.Load(ctx, man, testKey)
	step("load", out, err, `{"op":"load","manifest":`+string(man)+`,"key":"`+testKey+`"}`)
	if !bytes.HasPrefix(out, []byte(`{"loaded":true,`)) {
		t.Fatalf("load: %s", out)
	}
	out, err = s.Observe(ctx, state)
	step("observe", out, err, `{"op":"observe","state":`+string(state)+`}`)
	out, err = s.Describe(ctx, nil)
	step("describe", out, err, `{"op":"describe"}`)
	if !bytes.Contains(out, []byte(`"recordsTotal":48`)) {
		t.Fatalf("describe does not hold the 48 orders: %.200s", out)
	}
	out, err = s.Describe(ctx, []byte(` {"offset":8,"limit":2} `))
	step("describe window", out, err, `{"op":"describe","offset":8,"limit":2}`)
	out, err = s.Describe(ctx, []byte(`{"record":["SO-1002"]}`))
	step("describe record", out, err, `{"op":"describe","record":["SO-1002"]}`)
	out, err = s.Call(ctx, []byte(`{"op":"audit"}`))
	step("audit", out, err, `{"op":"audit"}`)
}

func TestModuleError(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	cases := []struct {
		name string
		call func() ([]byte, error)
		code string
	}{
		{"describe before load", func() ([]byte, error) { return s.Describe(ctx, nil) }, wire.CodeNotLoaded},
		{"bad manifest", func() ([]byte, error) { return s.Load(ctx, []byte(`{"pinhole":2}`), "") }, wire.CodeInvalidManifest},
		{"short key", func() ([]byte, error) { return s.Load(ctx, readFile(t, "orders/manifest.json"), "short") }, wire.CodeInvalidRequest},
		{"bad request", func() ([]byte, error) { return s.Call(ctx, []byte(`{"op":"describe"`)) }, ""},
		{"not an object", func() ([]byte, error) { return s.Describe(ctx, []byte(`[1]`)) }, wire.CodeInvalidRequest},
		{"record with window", func() ([]byte, error) {
			if _, err := s.Load(ctx, readFile(t, "orders/manifest.json"), ""); err != nil {
				return nil, err
			}
			if _, err := s.Observe(ctx, readFile(t, "orders/state.json")); err != nil {
				return nil, err
			}
			return s.Describe(ctx, []byte(`{"record":["SO-1001"],"limit":2}`))
		}, wire.CodeRecordWithWindow},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := c.call()
			if c.code == "" { // raw Call: an error response is not a Go error
				if err != nil || ResponseError(out) == nil {
					t.Fatalf("got %s, %v; want an error response and no Go error", out, err)
				}
				var we *wire.Error
				if !errors.As(ResponseError(out), &we) || we.Code != wire.CodeInvalidRequest {
					t.Fatalf("ResponseError(%s) = %v", out, ResponseError(out))
				}
				return
			}
			var we *wire.Error
			if !errors.As(err, &we) {
				t.Fatalf("got %s, %v; want a *wire.Error", out, err)
			}
			if we.Code != c.code || we.Message == "" {
				t.Fatalf("got code %q message %q, want code %q", we.Code, we.Message, c.code)
			}
			if !bytes.HasPrefix(out, []byte(`{"error":{"code":"`+c.code+`"`)) {
				t.Fatalf("response bytes: %s", out)
			}
		})
	}
}

func TestResponseError(t *testing.T) {
	if err := ResponseError([]byte(`{"snapshot":"s1"}`)); err != nil {
		t.Fatalf("success response: %v", err)
	}
	err := ResponseError([]byte(`{"error":{"code":"unknown_record","message":"m","param":"record"}}`))
	var we *wire.Error
	if !errors.As(err, &we) || *we != (wire.Error{Code: "unknown_record", Message: "m", Param: "record"}) {
		t.Fatalf("got %#v", err)
	}
	err = ResponseError([]byte(`{"error":{"code":`))
	if !errors.As(err, &we) || we.Code != "internal_error" {
		t.Fatalf("unreadable error response: %#v", err)
	}
}

func TestSessionsIsolated(t *testing.T) {
	ctx := context.Background()
	man, state := readFile(t, "orders/manifest.json"), readFile(t, "orders/state.json")
	a, b := newSession(t), newSession(t)
	if _, err := a.Load(ctx, man, testKey); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Observe(ctx, state); err != nil {
		t.Fatal(err)
	}
	// b has nothing loaded although a has.
	if _, err := b.Describe(ctx, nil); !isCode(err, wire.CodeNotLoaded) {
		t.Fatalf("second session sees the first one's manifest: %v", err)
	}
	// The same manifest and state under another key: other aliases, and
	// each session numbers its own snapshots.
	if _, err := b.Load(ctx, man, "another-key-0123456789"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := b.Observe(ctx, []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Observe(ctx, state); err != nil {
			t.Fatal(err)
		}
	}
	da, err := a.Describe(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	db, err := b.Describe(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(da, []byte(`{"snapshot":"s1",`)) || !bytes.HasPrefix(db, []byte(`{"snapshot":"s4",`)) {
		t.Fatalf("snapshots are not per session: %.30s / %.30s", da, db)
	}
	if bytes.Equal(da[17:], db[17:]) {
		t.Fatal("two keys gave the same aliases")
	}
}

func isCode(err error, code string) bool {
	var we *wire.Error
	return errors.As(err, &we) && we.Code == code
}

func TestTrap(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	// A buffer of 4 GiB - 1 cannot exist in a 32-bit module: the guest's
	// allocator fails and the Go runtime in the module exits.
	s.stack[0] = 1<<32 - 1
	err := s.alloc.CallWithStack(ctx, s.stack[:])
	if err == nil {
		t.Fatal("a 4 GiB allocation did not fail")
	}
	err = s.trap(ctx, "pinhole_alloc", err)
	t.Logf("trap: %v", err)
	if !errors.Is(err, ErrTrapped) {
		t.Fatalf("got %v, want ErrTrapped", err)
	}
	if _, err := s.Call(ctx, []byte(`{"op":"version"}`)); !errors.Is(err, ErrTrapped) {
		t.Fatalf("a dead session answered: %v", err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatalf("close after trap: %v", err)
	}
	// A new session works.
	out, err := newSession(t).Call(ctx, []byte(`{"op":"version"}`))
	if err != nil || !bytes.HasPrefix(out, []byte(`{"version":"`+session.Version+`"`)) {
		t.Fatalf("new session: %s, %v", out, err)
	}
}

func TestContext(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	done, cancel := context.WithCancel(ctx)
	cancel()
	// A context done before the call: nothing runs, the session lives on.
	if _, err := s.Call(done, []byte(`{"op":"version"}`)); !errors.Is(err, context.Canceled) || errors.Is(err, ErrTrapped) {
		t.Fatalf("got %v, want context.Canceled alone", err)
	}
	if _, err := s.Call(ctx, []byte(`{"op":"version"}`)); err != nil {
		t.Fatalf("session died of a canceled call that never ran: %v", err)
	}

	// WithCloseOnContextDone stops a running call: observing 10,000 orders
	// takes far longer than the deadline.
	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(ctx, wasm, WithCompilationCache(shared.cache), WithCloseOnContextDone())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(ctx)
	s2, err := m.NewSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	benchRequests(t)
	if _, err := s2.Call(ctx, bench.load); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = s2.Call(short, bench.observeA)
	if !errors.Is(err, ErrTrapped) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want ErrTrapped and context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the call stopped only after %v", d)
	}
	if _, err := s2.Call(ctx, []byte(`{"op":"version"}`)); !errors.Is(err, ErrTrapped) {
		t.Fatalf("session answered after its call was stopped: %v", err)
	}
}

func TestClose(t *testing.T) {
	ctx := context.Background()
	s := newSession(t)
	if _, err := s.Call(ctx, []byte(`{"op":"version"}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatalf("second close: %v", err)
	}
	if _, err := s.Call(ctx, []byte(`{"op":"version"}`)); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after close: %v", err)
	}
	if _, err := s.Describe(ctx, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("describe after close: %v", err)
	}

	// Closing a Module closes its sessions and refuses new ones.
	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(ctx, wasm, WithCompilationCache(shared.cache))
	if err != nil {
		t.Fatal(err)
	}
	s2, err := m.NewSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s2.Call(ctx, []byte(`{"op":"version"}`)); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after module close: %v", err)
	}
	if _, err := m.NewSession(ctx); !errors.Is(err, ErrClosed) {
		t.Fatalf("NewSession after module close: %v", err)
	}
}

func TestCompileRejectsOtherModules(t *testing.T) {
	// The smallest valid module: magic and version, nothing exported.
	empty := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	if _, err := Compile(context.Background(), empty); err == nil {
		t.Fatal("compiled a module without the pinhole exports")
	}
	if _, err := Compile(context.Background(), []byte("not wasm")); err == nil {
		t.Fatal("compiled bytes that are not WebAssembly")
	}
}

// TestConcurrentSessions uses one Module from several goroutines, one
// Session each; every one must answer as a lone native session does.
func TestConcurrentSessions(t *testing.T) {
	ctx := context.Background()
	m := testModule(t)
	man := readFile(t, "orders/manifest.json")
	state := []byte(`{"session":{"tenant":"t"},"orders":{"items":[{"number":"SO-1","status":"Ready to ship","customer":{"phone":"+44 20 7946 0000"}}]}}`)
	native := session.New()
	native.Call([]byte(`{"op":"load","manifest":` + string(man) + `,"key":"` + testKey + `"}`))
	native.Call([]byte(`{"op":"observe","state":` + string(state) + `}`))
	want := native.Call([]byte(`{"op":"describe"}`))

	errs := make(chan error, 4)
	for range cap(errs) {
		go func() {
			errs <- func() error {
				s, err := m.NewSession(ctx)
				if err != nil {
					return err
				}
				defer s.Close(ctx)
				if _, err := s.Load(ctx, man, testKey); err != nil {
					return err
				}
				for range 5 {
					if _, err := s.Observe(ctx, state); err != nil {
						return err
					}
					got, err := s.Describe(ctx, nil)
					if err != nil {
						return err
					}
					if !bytes.Equal(got, want) {
						return errors.New("a concurrent session answered differently: " + string(got))
					}
				}
				return nil
			}()
		}()
	}
	for range cap(errs) {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestModuleRewritten checks that the module the tests run is the one `make
// wasm` ships: its address arithmetic folded (internal/addrfold) and its
// data segments merged (internal/datamerge), so that every suite runs on
// the rewritten module. A second pass of either finds nothing left.
func TestModuleRewritten(t *testing.T) {
	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		t.Fatal("build/pinhole.wasm is missing (run make wasm): ", err)
	}
	_, st, err := addrfold.Fold(wasm)
	if err != nil {
		t.Fatal(err)
	}
	if st.Functions < 1000 || st.Folded != 0 || st.Removed != 0 {
		t.Fatalf("folding build/pinhole.wasm again: %+v; want over 1,000 functions and nothing folded", st)
	}
	_, ms, err := datamerge.Merge(wasm, datamerge.MaxGap)
	if err != nil {
		t.Fatal(err)
	}
	if ms.SegmentsIn == 0 || ms.SegmentsIn > 100 || ms.SegmentsOut != ms.SegmentsIn || ms.BytesOut != ms.BytesIn {
		t.Fatalf("merging build/pinhole.wasm's data again: %+v; want its few segments left as they are", ms)
	}
}
