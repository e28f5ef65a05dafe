# web/bench/bench.mk: Pinhole side by side with what users would do instead
# (a hand-written JavaScript projection, a dump of the store, the
# accessibility snapshot of the demo page), in Node and headless Chromium.
# Included by the top Makefile after the other fragments.
#   make bench-compare   run web/bench/run.mjs, then write BENCHMARKS.md and
#                        web/bench/chart.svg (web/bench/report.mjs), folding in
#                        build/bench-go.txt, bench-js.json, bench-worker.txt
#   make bench-report    rewrite BENCHMARKS.md from the outputs already in build/
# BENCH_QUICK=1 runs a few samples only (a smoke test of the scripts).

BENCH_TARGETS += bench-compare

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
