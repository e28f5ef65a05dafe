# workerd configuration that serves the built Worker locally, exactly as
# Cloudflare runs it (same runtime). `make worker` copies this file next to
# the build outputs in build/worker/; run it there with
#   ../../cmd/worker/node_modules/.bin/workerd serve workerd.capnp --socket-addr http=127.0.0.1:8787
# Vars and secrets come from the environment of the workerd process
# (PINHOLE_KEY, PINHOLE_ALLOWED_ORIGINS, PINHOLE_MAX_BODY_BYTES,
# PINHOLE_MAX_RESPONSE_BYTES, PINHOLE_MAX_BATCH, PINHOLE_INSTANCE, PINHOLE_MANIFESTS, which
# overrides the manifests bundled in manifests.json); the assets/ directory is served as static assets.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .pinhole),
    (name = "assets", disk = (path = "assets", writable = false)),
  ],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "main")],
);

const pinhole :Workerd.Worker = (
  modules = [
    (name = "entry.mjs", esModule = embed "entry.mjs"),
    (name = "body.mjs", esModule = embed "body.mjs"),
    (name = "wasm_exec.js", esModule = embed "wasm_exec.js"),
    (name = "app.wasm", wasm = embed "app.wasm"),
    (name = "manifests.json", json = embed "manifests.json"),
  ],
  compatibilityDate = "2025-09-01",
  bindings = [
    (name = "PINHOLE_KEY", fromEnvironment = "PINHOLE_KEY"),
    (name = "PINHOLE_ALLOWED_ORIGINS", fromEnvironment = "PINHOLE_ALLOWED_ORIGINS"),
    (name = "PINHOLE_MAX_BODY_BYTES", fromEnvironment = "PINHOLE_MAX_BODY_BYTES"),
    (name = "PINHOLE_MAX_RESPONSE_BYTES", fromEnvironment = "PINHOLE_MAX_RESPONSE_BYTES"),
    (name = "PINHOLE_MAX_BATCH", fromEnvironment = "PINHOLE_MAX_BATCH"),
    (name = "PINHOLE_MANIFESTS", fromEnvironment = "PINHOLE_MANIFESTS"),
    (name = "PINHOLE_INSTANCE", fromEnvironment = "PINHOLE_INSTANCE"),
    (name = "ASSETS", service = "assets"),
  ],
);
