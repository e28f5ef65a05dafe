# web/web.mk: the demo app, the example browser extension and the
# end-to-end tests in headless Chromium (included by the top Makefile).
#   make demo-web   build the module, the bridge and the app; serve on 127.0.0.1
#   make test-web   end-to-end tests in Debian's chromium (installed when absent)
# UPDATE_GOLDEN=1 rewrites web/test/golden; UPDATE_SCREENSHOT=1 rewrites web/screenshot.png.

TEST_TARGETS += test-web
WEB_STAMP := web/node_modules/.package-lock.json
WEB_SOURCES := $(wildcard web/src/* web/extension/* web/build.mjs js/package.json js/src/*.js js/src/*/*.js) testdata/orders/manifest.json testdata/orders/generate.mjs

.PHONY: test-web demo-web web-build web-chromium

# npm ci when node_modules is missing or older than the lock file.
$(WEB_STAMP): web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	@touch $@

web/dist/app.js: $(WEB_STAMP) $(WEB_SOURCES)
	cd web && node build.mjs

web-build: web/dist/app.js

web-chromium:
	@test -x /usr/bin/chromium || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }

test-web: $(WASM) web-build web-chromium
	cd web && node --test --test-concurrency=1 --test-timeout=240000 test/e2e.test.mjs

demo-web: $(WASM) web-build
	node web/serve.mjs $(PORT)
