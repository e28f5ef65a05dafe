# web/bench/bench.mk: Pinhole side by side with what users would do instead
# (a hand-written JavaScript projection, a dump of the store, the
# accessibility snapshot of the demo page), in Node and headless Chromium.
# Included by the top Makefile after the other fragments.
#   make bench-compare   run web/bench/run.mjs, then write BENCHMARKS.md and
#                        web/bench/chart.svg (web/bench/report.mjs), folding in
#                        build/bench-go.txt, bench-js.json, bench-worker.txt
#   make bench-report    rewrite BENCHMARKS.md from the outputs already in build/
# BENCH_QUICK=1 runs a few samples only (a smoke test of the scripts).

#   make bench-tasks     the task benchmark (web/bench/tasks.mjs): twelve tasks on
#                        the demo, each solved by an aria-snapshot agent and a
#                        Pinhole agent; writes build/bench-tasks.json and the
#                        table at the top of BENCHMARKS.md and README.md
#   make test-tasks      three of those tasks with both agents must succeed
#                        (part of make test; no figure is asserted)
BENCH_TARGETS += bench-flat bench-wazero bench-cli

# The module without the one-step heap reservation, for the comparison in
# bench-flat (same sources, -tags pinhole_noreserve).
WASM_NORESERVE := build/pinhole-noreserve.wasm
$(WASM_NORESERVE): $(GO_SOURCES)
	@mkdir -p build
	GOOS=wasip1 GOARCH=wasm $(GO) build -tags pinhole_noreserve $(WASM_FLAGS) -o $@ ./wasm
	$(call POSTLINK,$@)

.PHONY: bench-flat bench-wazero bench-cli
# Cold observe per MB at 10,000, 30,000 and 100,000 orders, with and without
# the reservation, in Node (js/bench/flat.mjs) and Chromium (web/bench/flat.mjs,
# which also times first and repeat visits' compileStreaming).
bench-flat: $(WASM) $(WASM_NORESERVE) js-deps web-build web-chromium
	cd js && node bench/flat.mjs $(if $(BENCH_QUICK),--quick)
	node web/bench/flat.mjs $(if $(BENCH_QUICK),--quick)

# A cold observe of 100,000 orders under wazero: reserved memory against
# wazero's copying growth (host BenchmarkObserve100kCold; bench-go skips it).
bench-wazero: $(WASM) $(WASM_NORESERVE)
	set -o pipefail; $(GO) test -run '^$$' -bench 'Observe100kCold' -benchtime 1x -count $(if $(BENCH_QUICK),1,3) -timeout 30m ./host | tee build/bench-wazero.txt

# The CLI's describe --wasm as a new process: disk cache off, cold, warm.
bench-cli: $(WASM)
	set -o pipefail; $(GO) test -run '^$$' -bench 'CLIDescribe' -benchtime $(if $(BENCH_QUICK),1x,5x) -timeout 30m ./cmd/pinhole | tee build/bench-cli.txt

#   make bench-offthread main-thread blocking in Chromium (Long Tasks API), the
#                        module in-thread against worker-hosted: createPinhole to
#                        the first describe, a 10,000-order cold sync, and the
#                        demo's 10,000-order switch; writes build/bench-offthread.json

BENCH_TARGETS += bench-startup bench-offthread bench-tasks bench-compare
TEST_TARGETS += test-tasks

.PHONY: bench-compare bench-report bench-tasks test-tasks bench-offthread bench-startup

# Under `make bench` the comparison runs after the benchmarks listed before it,
# so the report folds in their fresh outputs (also with make -j).
ifneq ($(filter bench,$(MAKECMDGOALS)),)
bench-compare: $(filter-out bench-compare,$(BENCH_TARGETS))
endif

bench-compare: $(WASM) web-build web-chromium
	node web/bench/run.mjs $(if $(BENCH_QUICK),--quick)
	node web/bench/report.mjs

bench-report: $(WEB_STAMP)
	node web/bench/report.mjs

bench-tasks: $(WASM) web-build web-chromium
	node web/bench/tasks-run.mjs
	node web/bench/tasks-report.mjs

test-tasks: $(WASM) web-build web-chromium
	cd web && node --test --test-concurrency=1 --test-timeout=240000 test/tasks.test.mjs

bench-offthread: $(WASM) web-build web-chromium
	node web/bench/offthread.mjs $(if $(BENCH_QUICK),--quick)

#   make bench-startup   pinhole.wasm's cold start against an empty Go wasip1
#                        reactor (web/bench/emptyreactor, built with the same
#                        flags), interleaved, phase by phase, in fresh Node
#                        processes and fresh Chromium pages, and the
#                        instructions one cold start executes (valgrind's
#                        callgrind: Debian's valgrind, installed when absent
#                        and root); writes build/bench-startup.json
#                        (web/bench/startup.mjs)

# The floor is left as Go builds it: POSTLINK is not run on it.
build/empty-reactor.wasm: web/bench/emptyreactor/main.go
	@mkdir -p build
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_FLAGS) -o $@ ./web/bench/emptyreactor

# The same two modules with their function names kept (no -s -w): the same
# code section, so startup.mjs can name the functions V8 optimised during a
# start. It checks that the code sections match before it uses the names.
WASM_NAMED_FLAGS := $(subst -s -w ,,$(WASM_FLAGS))
build/pinhole-named.wasm: $(GO_SOURCES)
	@mkdir -p build
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_NAMED_FLAGS) -o $@ ./wasm
	$(call POSTLINK,$@)
build/empty-reactor-named.wasm: web/bench/emptyreactor/main.go
	@mkdir -p build
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_NAMED_FLAGS) -o $@ ./web/bench/emptyreactor

.PHONY: bench-valgrind
bench-valgrind:
	@command -v valgrind >/dev/null || { \
	  if [ "$$(id -u)" != 0 ]; then echo "no valgrind: the start-up instruction counts are skipped (install Debian's valgrind to have them)" >&2; exit 0; fi; \
	  apt-get update </dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y valgrind </dev/null; }

bench-startup: $(WASM) build/empty-reactor.wasm build/pinhole-named.wasm build/empty-reactor-named.wasm $(WEB_STAMP) web-chromium bench-valgrind
	node web/bench/startup.mjs $(if $(BENCH_QUICK),--quick)
