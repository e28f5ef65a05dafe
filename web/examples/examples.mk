# web/examples/examples.mk: the packed npm tarball as a stranger uses it
# (included by the top Makefile).
#   make test-pack      install build/pinholectx-pinhole-<version>.tgz into an
#                       empty project and run a Node app on it; bundle it with
#                       esbuild (ESM, IIFE) and build the demo: no warning
TEST_TARGETS += test-pack

.PHONY: test-pack

test-pack: pack $(WEB_STAMP)
	cd web && node --test --test-concurrency=1 examples/test/pack.test.mjs
