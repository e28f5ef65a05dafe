# web/web.mk: the demo app, the example browser extension and the
# end-to-end tests in headless Chromium (included by the top Makefile).
#   make demo-web   build the module, the bridge and the app; serve on 127.0.0.1
#   make test-web   end-to-end tests in Debian's chromium (installed when absent),
#                   the package's sources loaded unbundled through an
#                   import map (test/nobundler.test.mjs), and its WebMCP tools
#                   in Chromium's own WebMCP (test/webmcp-native.test.mjs)
#   make test-web-isolated   each end-to-end test alone, in a fresh process
# CHROMIUM=/path/to/chromium runs the tests and benchmarks in that browser and
# installs none; without it, /usr/bin/chromium (apt-get install when absent).
# UPDATE_GOLDEN=1 rewrites web/test/golden; UPDATE_SCREENSHOT=1 rewrites web/screenshot.png.

TEST_TARGETS += test-web
WEB_STAMP := web/node_modules/.package-lock.json
WEB_SOURCES := $(wildcard web/src/* web/extension/* web/build.mjs js/package.json js/src/*.js js/src/*/*.js) testdata/orders/manifest.json testdata/orders/generate.mjs

.PHONY: test-web test-web-isolated demo-web web-build web-chromium

# npm ci when node_modules is missing or older than the lock file.
$(WEB_STAMP): web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	@touch $@

web/dist/app.js: $(WEB_STAMP) $(WEB_SOURCES)
	cd web && node build.mjs

web-build: web/dist/app.js

# The tests and benchmarks read CHROMIUM (a path) from the environment.
ifneq ($(CHROMIUM),)
export CHROMIUM
web-chromium:
	@test -f "$$CHROMIUM" && test -x "$$CHROMIUM" || { echo "CHROMIUM=$$CHROMIUM is not an executable file" >&2; exit 1; }
else
web-chromium:
	@test -x /usr/bin/chromium || { \
	  if [ "$$(id -u)" != 0 ]; then echo "no /usr/bin/chromium: install Debian's chromium as root, or set CHROMIUM=/path/to/chromium" >&2; exit 1; fi; \
	  apt-get update </dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium </dev/null; }
endif

test-web: $(WASM) web-build web-chromium
	cd web && node --test --test-concurrency=1 --test-timeout=240000 test/e2e.test.mjs test/serve.test.mjs test/nobundler.test.mjs test/webmcp-native.test.mjs test/wasmnames.test.mjs test/measure.test.mjs test/goals.test.mjs

test-web-isolated: $(WASM) web-build web-chromium
	cd web && node test/isolated.mjs

demo-web: $(WASM) web-build
	node web/serve.mjs $(PORT)
