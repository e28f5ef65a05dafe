# cmd/worker: the projection as a Cloudflare Worker (see cmd/worker/README.md).
# `make worker` builds it into build/worker/ (the files workerd and wrangler
# load, plus assets/: the demo page from web/dist, pinhole.wasm and the
# conformance vectors under vectors/, laid out as web/serve.mjs serves them);
# `make worker-test` copies it to build/worker-test/ with app.wasm rebuilt
# with -tags pinhole_faults, which adds the fault-injection endpoints the
# workerd tests use (fault_js.go): the Worker that ships has none.
# `make test-worker` runs the handler tests natively and again against that
# Worker under a real workerd; `make bench-worker` measures it, and
# `make bench-worker-memory` prints the peak memory of the largest requests
# the default bounds accept (each in a fresh workerd).
WORKER_DIR := build/worker
WORKER_TEST_DIR := build/worker-test
WORKER_NPM := cmd/worker/node_modules/.package-lock.json
WORKER_GOFLAGS := -trimpath -buildvcs=false -ldflags='-s -w -buildid='
# Manifests bundled into the Worker, as id=path pairs; callers then send
# {"manifestId": id}. The default binds the orders example for the demo.
WORKER_MANIFESTS ?= orders=testdata/orders/manifest.json

TEST_TARGETS += test-worker
BENCH_TARGETS += bench-worker

.PHONY: worker worker-test test-worker bench-worker bench-worker-memory

# workerd, Cloudflare's runtime, from npm (it ships the platform binary).
$(WORKER_NPM): cmd/worker/package.json cmd/worker/package-lock.json
	cd cmd/worker && npm ci --no-audit --no-fund

worker: $(WASM)
	$(GO) run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o $(WORKER_DIR)
	rm -f $(WORKER_DIR)/worker.mjs $(WORKER_DIR)/runtime.mjs
	GOOS=js GOARCH=wasm $(GO) build $(WORKER_GOFLAGS) -o $(WORKER_DIR)/app.wasm ./cmd/worker
	$(call POSTLINK,$(WORKER_DIR)/app.wasm)
	cp cmd/worker/entry.mjs cmd/worker/body.mjs cmd/worker/workerd.capnp $(WORKER_DIR)/
	@sep=; { printf '{'; for m in $(WORKER_MANIFESTS); do \
	  printf '%s"%s":' "$$sep" "$${m%%=*}"; cat "$${m#*=}"; sep=,; done; printf '}\n'; } > $(WORKER_DIR)/manifests.json
	node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' $(WORKER_DIR)/manifests.json
	mkdir -p $(WORKER_DIR)/assets
	if [ -d web/dist ]; then cp -R web/dist/. $(WORKER_DIR)/assets/; fi
	cp $(WASM) $(WORKER_DIR)/assets/pinhole.wasm
	mkdir -p $(WORKER_DIR)/assets/vectors
	if ls testdata/vectors/*.jsonl >/dev/null 2>&1; then cp testdata/vectors/*.jsonl $(WORKER_DIR)/assets/vectors/; fi
	node -e 'const fs = require("fs"); const d = process.argv[1]; fs.writeFileSync(d + "/index.json", JSON.stringify(fs.readdirSync(d).filter((n) => n.endsWith(".in.jsonl")).sort().map((n) => n.slice(0, -9))))' $(WORKER_DIR)/assets/vectors

worker-test: worker
	rm -rf $(WORKER_TEST_DIR)
	cp -R $(WORKER_DIR) $(WORKER_TEST_DIR)
	GOOS=js GOARCH=wasm $(GO) build $(WORKER_GOFLAGS) -tags pinhole_faults -o $(WORKER_TEST_DIR)/app.wasm ./cmd/worker
	$(call POSTLINK,$(WORKER_TEST_DIR)/app.wasm)

test-worker: worker-test $(WORKER_NPM)
	@test -z "$$(gofmt -l cmd/worker)" || { echo "gofmt needed:"; gofmt -l cmd/worker; exit 1; }
	$(GO) vet -tags workerd ./cmd/worker
	GOOS=js GOARCH=wasm $(GO) vet ./cmd/worker
	GOOS=js GOARCH=wasm $(GO) vet -tags pinhole_faults ./cmd/worker
	$(GO) test -count=1 -tags workerd ./cmd/worker
	node --test cmd/worker/body.test.mjs

bench-worker: worker-test $(WORKER_NPM)
	$(GO) test -count=1 -tags workerd -run '^$$' -bench . -benchtime 200x ./cmd/worker | tee build/bench-worker.txt
	node --no-warnings cmd/worker/bench/inpage.mjs 200 | tee -a build/bench-worker.txt
	@printf 'worker script: app.wasm %d bytes raw, %d gzip -9; glue JS %d bytes raw\n' \
	  $$(wc -c < $(WORKER_DIR)/app.wasm) $$(gzip -9c $(WORKER_DIR)/app.wasm | wc -c) \
	  $$(cat $(WORKER_DIR)/*.mjs $(WORKER_DIR)/*.js | wc -c) | tee -a build/bench-worker.txt

bench-worker-memory: worker-test $(WORKER_NPM)
	set -o pipefail; $(GO) test -count=1 -tags workerd -run '^TestWorkerdMemory$$' -v ./cmd/worker | grep -E 'workerd peak|^(---|ok|FAIL)' | tee build/bench-worker-memory.txt
