// One cold start of pinhole.wasm in a fresh Node process: compile from the
// bytes in memory, instantiate (with _initialize), load the orders manifest,
// then createPinhole + the first describe of the 48-order store. run.mjs
// starts one process per sample, so no compiled code or background
// compilation carries over between samples. Prints the figures as JSON.
import { readFileSync } from "node:fs";
import { startup } from "./latency.mjs";

const bytes = readFileSync(new URL("../../build/pinhole.wasm", import.meta.url));
const manifest = JSON.parse(readFileSync(new URL("../../testdata/orders/manifest.json", import.meta.url), "utf8"));
process.stdout.write(JSON.stringify(await startup(() => WebAssembly.compile(bytes), manifest, 1)) + "\n");
