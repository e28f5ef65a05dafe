# The JavaScript bridge (js/): included by the top Makefile.
# `make test-js` installs the npm dependencies when they are missing
# (npm ci, from js/package-lock.json), type-checks the declarations and runs
# the Node test suite against build/pinhole.wasm. `make bench-js` runs the
# Node benchmarks and writes build/bench-js.json.
TEST_TARGETS += test-js
BENCH_TARGETS += bench-js

.PHONY: test-js bench-js js-deps

# npm writes node_modules/.package-lock.json on every install: use it to
# reinstall when the lockfile changes.
js/node_modules/.package-lock.json: js/package-lock.json js/package.json
	cd js && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

js-deps: js/node_modules/.package-lock.json

test-js: $(WASM) js-deps
	cd js && npm run --silent typecheck
	cd js && npm test

bench-js: $(WASM) js-deps
	cd js && node bench/sync.mjs
