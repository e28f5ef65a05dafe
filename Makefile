# Pinhole build. `make test` installs what it needs and runs every suite;
# `make demo` builds everything and serves the demo. Parts of the project
# add their own targets in the *.mk fragments included below.
SHELL := bash
GO ?= go
export GOFLAGS ?= -mod=readonly
WASM := build/pinhole.wasm
GO_SOURCES := $(shell find wasm internal -name '*.go' -not -name '*_test.go') go.mod go.sum
# Reproducible module builds (same bytes from the same sources). Our own
# packages are built without inlining: smaller functions start faster in
# V8 (BENCHMARKS.md, "Where the start-up goes").
WASM_FLAGS := -buildmode=c-shared -trimpath -buildvcs=false -ldflags='-s -w -buildid=' \
	-gcflags='github.com/pinholectx/pinhole/...=-l'
# Every module we ship is then rewritten after linking, in place:
# addrfold folds Go's address arithmetic into the loads' and stores'
# offsets (7% less code for V8 to validate and compile at start-up),
# datamerge joins Go's tens of thousands of data segments into a few (less
# for V8 to decode and copy). RATIONALE.md, "Go's address arithmetic is
# folded after linking" and "Go's data segments are merged after linking".
# $(call POSTLINK,file.wasm) runs both (internal/postlink).
POSTLINK = $(GO) run ./internal/postlink $(1)

# A target whose recipe fails is deleted, so that a module built but not
# rewritten (POSTLINK above) is never taken for a finished one.
.DELETE_ON_ERROR:

# Fragments append their suites to TEST_TARGETS and benchmarks to BENCH_TARGETS.
TEST_TARGETS := test-go test-checks
BENCH_TARGETS := bench-go

.PHONY: all wasm cli test test-go generate check-generated check-notices test-checks vet bench bench-go demo fuzz clean
all: wasm cli

wasm: $(WASM)
$(WASM): $(GO_SOURCES) Makefile
	@mkdir -p build
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_FLAGS) -o $@ ./wasm
	$(call POSTLINK,$@)

cli:
	@mkdir -p bin
	$(GO) build -trimpath -o bin/pinhole ./cmd/pinhole

generate:
	$(GO) generate ./...

# The checks below read the tree, not git, so they check the same in a git
# checkout, a tarball or a CI cache, and fail when they find nothing to check.
GO_FILES = find . \( -name node_modules -o -name .git -o -path ./build \) -prune -o -name '*.go' -print

# Generated code must be fresh: regenerate, and fail if any Go file changed
# or appeared (the regenerated files are left in place).
check-generated:
	@set -eo pipefail; keep=$$(mktemp -d); trap 'rm -rf "$$keep"' EXIT; \
	$(GO_FILES) | tar -cf - -T - | tar -C "$$keep" -xf -; \
	grep -rqlx '// Code generated .* DO NOT EDIT\.' "$$keep" || { echo "check-generated: no generated Go file found" >&2; exit 1; }; \
	$(GO) generate ./...; stale=; \
	for f in $$($(GO_FILES)); do cmp -s "$$f" "$$keep/$$f" || stale="$$stale $$f"; done; \
	[ -z "$$stale" ] || { echo "generated code was stale:$$stale (now regenerated: commit it)" >&2; exit 1; }

vet:
	@files=$$($(GO_FILES)); [ -n "$$files" ] || { echo "vet: no Go files found" >&2; exit 1; }; \
	bad=$$(gofmt -l $$files); [ -z "$$bad" ] || { echo "gofmt needed:" >&2; echo "$$bad" >&2; exit 1; }
	$(GO) vet ./...

# Every Go module linked into the module, the CLI, the Worker or a program
# importing the supported packages must be named in THIRD_PARTY_NOTICES.md.
check-notices:
	@set -eo pipefail; f='{{with .Module}}{{.Path}}{{end}}'; \
	mods=$$( { GOOS=wasip1 GOARCH=wasm $(GO) list -deps -f "$$f" ./wasm; $(GO) list -deps -f "$$f" . ./cmd/pinhole ./host; \
	  GOOS=js GOARCH=wasm $(GO) list -deps -f "$$f" ./cmd/worker; } | sort -u); \
	case "$$mods" in *github.com/pinholectx/pinhole*) ;; *) echo "check-notices: go list found no modules" >&2; exit 1;; esac; \
	missing=; for m in $$mods; do [ "$$m" = github.com/pinholectx/pinhole ] || grep -qF "$$m" THIRD_PARTY_NOTICES.md || missing="$$missing $$m"; done; \
	[ -z "$$missing" ] || { echo "THIRD_PARTY_NOTICES.md does not name:$$missing" >&2; exit 1; }

test-go: check-generated vet check-notices $(WASM)
	$(GO) test -count=1 ./...

# The checks above, tested: each fails on what it is meant to catch, in a
# copy of the tree without git.
test-checks:
	.ci/checks-test.sh

-include js/js.mk
-include web/web.mk
-include cmd/worker/worker.mk
-include web/bench/bench.mk
-include web/examples/examples.mk

test: $(TEST_TARGETS)

bench: $(BENCH_TARGETS)

bench-go: $(WASM)
	set -o pipefail; $(GO) test -run '^$$' -bench . -skip 'Observe100kCold' -benchtime 1s -count 5 -timeout 30m ./internal/... ./wasm/... ./host/... | tee build/bench-go.txt

fuzz:
	@for t in $$(grep -rhoE '^func Fuzz[A-Za-z0-9_]+' --include '*_test.go' internal cmd | sed 's/func //'); do \
	  pkg=$$(grep -rlE "^func $$t\(" --include '*_test.go' internal cmd | xargs dirname); \
	  echo "fuzzing $$t in $$pkg"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $${FUZZTIME:-60s} ./$$pkg || exit 1; done

# Build the module, the bridge and the demo app, and serve the demo on a
# loopback port it prints (PORT=… to choose one).
demo: demo-web

clean:
	rm -rf build bin
