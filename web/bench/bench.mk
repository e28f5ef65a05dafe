# web/bench/bench.mk: Pinhole side by side with what users would do instead
# (a hand-written JavaScript projection, a dump of the store, the
# accessibility snapshot of the demo page), in Node and headless Chromium.
# Included by the top Makefile after the other fragments.
#   make bench-compare   run web/bench/run.mjs, then write BENCHMARKS.md and
#                        web/bench/chart.svg (web/bench/report.mjs), folding in
#                        build/bench-go.txt, bench-js.json, bench-worker.txt
#   make bench-report    rewrite BENCHMARKS.md from the outputs already in build/
# BENCH_QUICK=1 runs a few samples only (a smoke test of the scripts).

BENCH_TARGETS += bench-flat bench-compare

# The module without the one-step heap reservation, for the comparison in
# bench-flat (same sources, -tags pinhole_noreserve).
WASM_NORESERVE := build/pinhole-noreserve.wasm
$(WASM_NORESERVE): $(GO_SOURCES)
	@mkdir -p build
	GOOS=wasip1 GOARCH=wasm $(GO) build -tags pinhole_noreserve $(WASM_FLAGS) -o $@ ./wasm

.PHONY: bench-flat
# Cold observe per MB at 10,000, 30,000 and 100,000 orders, with and without
# the reservation, in Node (js/bench/flat.mjs) and Chromium (web/bench/flat.mjs).
bench-flat: $(WASM) $(WASM_NORESERVE) js-deps
	cd js && node bench/flat.mjs $(if $(BENCH_QUICK),--quick)

.PHONY: bench-compare bench-report

# Under `make bench` the comparison runs after the benchmarks listed before it,
# so the report folds in their fresh outputs (also with make -j).
ifneq ($(filter bench,$(MAKECMDGOALS)),)
bench-compare: $(filter-out bench-compare,$(BENCH_TARGETS))
endif

bench-compare: $(WASM) web-build web-chromium
	node web/bench/run.mjs $(if $(BENCH_QUICK),--quick)
	node web/bench/report.mjs

bench-report:
	node web/bench/report.mjs
