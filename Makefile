# Pinhole build. `make test` installs what it needs and runs every suite;
# `make demo` builds everything and serves the demo. Parts of the project
# add their own targets in the *.mk fragments included below.
SHELL := bash
GO ?= go
export GOFLAGS ?= -mod=readonly
WASM := build/pinhole.wasm
GO_SOURCES := $(shell find wasm internal -name '*.go' -not -name '*_test.go') go.mod go.sum
# Reproducible module builds (same bytes from the same sources).
WASM_FLAGS := -buildmode=c-shared -trimpath -buildvcs=false -ldflags='-s -w -buildid='

# Fragments append their suites to TEST_TARGETS and benchmarks to BENCH_TARGETS.
TEST_TARGETS := test-go
BENCH_TARGETS := bench-go

.PHONY: all wasm cli test test-go generate check-generated vet bench bench-go demo fuzz clean
all: wasm cli

wasm: $(WASM)
$(WASM): $(GO_SOURCES)
	@mkdir -p build
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_FLAGS) -o $@ ./wasm

cli:
	@mkdir -p bin
	$(GO) build -trimpath -o bin/pinhole ./cmd/pinhole

generate:
	$(GO) generate ./...

# Generated code must be fresh: regenerate and fail if anything changed.
check-generated:
	@$(GO) generate ./...
	@if [ -n "$$(git status --porcelain -- '*_easyjson.go')" ]; then \
	  echo "generated easyjson code is stale: run 'make generate' and commit"; \
	  git --no-pager diff --stat -- '*_easyjson.go'; exit 1; fi

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./...

test-go: check-generated vet $(WASM)
	$(GO) test -count=1 ./...

-include js/js.mk
-include web/web.mk
-include cmd/worker/worker.mk
-include web/bench/bench.mk
-include web/examples/examples.mk

test: $(TEST_TARGETS)

bench: $(BENCH_TARGETS)

bench-go: $(WASM)
	set -o pipefail; $(GO) test -run '^$$' -bench . -benchtime 1s -count 5 -timeout 30m ./internal/... ./wasm/... ./host/... | tee build/bench-go.txt

fuzz:
	@for t in $$(grep -rhoE '^func Fuzz[A-Za-z0-9_]+' --include '*_test.go' internal | sed 's/func //'); do \
	  pkg=$$(grep -rlE "^func $$t\(" --include '*_test.go' internal | xargs dirname); \
	  echo "fuzzing $$t in $$pkg"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $${FUZZTIME:-60s} ./$$pkg || exit 1; done

# Build the module, the bridge and the demo app, and serve the demo on a
# loopback port it prints (PORT=… to choose one).
demo: demo-web

clean:
	rm -rf build bin
