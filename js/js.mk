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

# `make pack` writes the npm tarball of @pinholectx/pinhole to build/
# (build/pinholectx-pinhole-<version>.tgz): the module, the sources, the
# declarations built by this package's own TypeScript, the manifest's JSON
# Schema, README, LICENSE and THIRD_PARTY_NOTICES.md.
PACK_VERSION := $(shell node -p 'require("./js/package.json").version' 2>/dev/null)
PACK := build/pinholectx-pinhole-$(PACK_VERSION).tgz
PACK_SOURCES := $(wildcard js/src/*.js js/src/*.ts js/src/*/*.js) js/package.json js/README.md js/manifest.schema.json js/tsconfig.json js/scripts/pack.mjs $(wildcard LICENSE THIRD_PARTY_NOTICES.md)
.PHONY: pack
pack: $(PACK)
$(PACK): $(WASM) $(PACK_SOURCES) | js-deps
	cd js && npm pack --silent --pack-destination ../build >/dev/null
	@test -f $@ && echo "packed $@"
