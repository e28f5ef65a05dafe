#!/usr/bin/env bash
# Tests the Makefile's own checks in a copy of the tree without git (as a
# tarball or a CI cache would have it): each passes on the tree as it is and
# fails on what it is meant to catch. `make test-checks` (part of `make
# test`) runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
make=${MAKE:-make}
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
tar --exclude=./.git --exclude=node_modules --exclude=./build --exclude=./bin -cf - . | tar -C "$copy" -xf -
cd "$copy"
[ ! -e .git ] || { echo "checks-test: the copy has .git" >&2; exit 1; }

failures=0
expect() { # expect pass|fail WHAT COMMAND...
  local want=$1 what=$2; shift 2
  if "$@" >out.log 2>&1; then got=pass; else got=fail; fi
  if [ "$got" = "$want" ]; then echo "ok   $what: ${got}ed as it should"; else
    echo "FAIL $what: ${got}ed, want it to ${want}"; sed 's/^/    /' out.log; failures=$((failures + 1)); fi
}
quiet() { "$make" --no-print-directory -s "$@"; }

expect pass "check-generated on the tree" quiet check-generated
# (vet passing on the tree is test-go's own first step.)
expect pass "check-notices on the tree" quiet check-notices

gen=$(find . -path ./web -prune -o -name '*_enc.go' -print | head -1)
cp "$gen" gen.keep
echo '// stale' >>"$gen"
expect fail "check-generated with a stale $gen" quiet check-generated
cmp -s "$gen" gen.keep || { echo "FAIL check-generated did not regenerate $gen"; failures=$((failures + 1)); }
rm "$gen"
expect fail "check-generated with $gen missing" quiet check-generated
cp gen.keep "$gen"

printf 'package session\nfunc  unformatted() {}\n' >internal/session/zz_unformatted.go
expect fail "vet with an unformatted file" quiet vet
rm internal/session/zz_unformatted.go

cp THIRD_PARTY_NOTICES.md notices.keep
grep -v 'tetratelabs/wazero' notices.keep >THIRD_PARTY_NOTICES.md
expect fail "check-notices without wazero's notice" quiet check-notices
cp notices.keep THIRD_PARTY_NOTICES.md

# The browser install: a given CHROMIUM is used as is, never installed.
expect pass "web-chromium with CHROMIUM set installs nothing" \
  bash -c "! '$make' -n web-chromium CHROMIUM=/bin/sh | grep -q apt-get"
expect pass "web-chromium accepts an executable CHROMIUM" quiet web-chromium CHROMIUM=/bin/sh
expect fail "web-chromium refuses a CHROMIUM that is not there" quiet web-chromium CHROMIUM=/nonexistent/chromium

[ "$failures" = 0 ] || { echo "checks-test: $failures failed" >&2; exit 1; }
echo "checks-test: every check passes on the tree and fails on what it catches"
