# web/examples/examples.mk: the packed npm tarball as a stranger uses it
# (included by the top Makefile).
#   make test-pack      install build/pinholectx-pinhole-<version>.tgz into an
#                       empty project and run a Node app on it; bundle it with
#                       esbuild (ESM, IIFE) and build the demo: no warning
#   make test-examples  build web/examples/vite-react (Vite + React + Zustand)
#                       and web/examples/webpack (webpack 5 + Redux Toolkit)
#                       from the tarball, fail on any bundler warning, and
#                       and web/examples/script-tag (one classic script,
#                       esbuild IIFE), and drive all three in headless Chromium;
#                       offthread.test.mjs: the demo's worker-hosted module
#                       (describe, execute, after, trap and worker recovery)
TEST_TARGETS += test-pack test-examples
EXAMPLES := vite-react webpack script-tag
EXAMPLE_STAMPS := $(EXAMPLES:%=web/examples/%/node_modules/.package-lock.json)

.PHONY: test-pack test-examples examples-deps

test-pack: pack $(WEB_STAMP)
	cd web && node --test --test-concurrency=1 examples/test/pack.test.mjs

# The lockfiles pin every dependency but the tarball (its integrity entry is
# left out: it changes with every build of the module). `npm install
# --no-save` follows the lockfile without rewriting it; the package is
# removed first so the current tarball is always the one installed, and so is
# Vite's cache of pre-bundled dependencies, which would otherwise keep serving
# the previous tarball's code under the dev server. (npm ci
# is not used: it rejects vite 8's lockfile here, which lacks an optional
# Windows-only dependency this registry does not serve.)
web/examples/%/node_modules/.package-lock.json: web/examples/%/package.json web/examples/%/package-lock.json $(PACK)
	rm -rf web/examples/$*/node_modules/@pinholectx web/examples/$*/node_modules/.vite
	cd web/examples/$* && npm install --no-save --prefer-offline --no-audit --no-fund --loglevel=error
	@touch $@

examples-deps: $(EXAMPLE_STAMPS)

test-examples: pack examples-deps $(WEB_STAMP) web-chromium web-build
	cd web && node --test --test-concurrency=1 --test-timeout=240000 examples/test/examples.test.mjs examples/test/offthread.test.mjs
