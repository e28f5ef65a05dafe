// Replays the conformance vectors of testdata/vectors in this browser
// through the bridge's low-level module API: one fresh module instance per
// vector file, each request line sent as its exact bytes, each response
// compared byte for byte with the golden line. The result lands in
// window.vectorResult and in the page.
import { compileModule, createModuleInstance } from "@pinholectx/pinhole";

const enc = new TextEncoder();

/** lines splits bytes at "\n" (the files end with one). */
function lines(buf) {
  const out = [];
  let start = 0;
  for (let i = 0; i < buf.length; i++) if (buf[i] === 10) { out.push(buf.subarray(start, i)); start = i + 1; }
  if (start < buf.length) out.push(buf.subarray(start));
  return out;
}

const equal = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const get = async (url) => {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
};

async function run() {
  const module = await compileModule(new URL("/pinhole.wasm", location.href));
  /** @type {string[]} */
  const names = await (await fetch("/vectors/index.json")).json();
  const result = { files: names.length, requests: 0, failures: /** @type {any[]} */ ([]) };
  for (const name of names) {
    const [ins, outs] = await Promise.all([get(`/vectors/${name}.in.jsonl`), get(`/vectors/${name}.out.jsonl`)]);
    const reqs = lines(ins), want = lines(outs);
    if (reqs.length !== want.length) { result.failures.push({ name, line: 0, why: `${reqs.length} requests, ${want.length} responses` }); continue; }
    const inst = await createModuleInstance(module);
    for (let i = 0; i < reqs.length; i++) {
      const req = reqs[i];
      result.requests++;
      const got = enc.encode(inst.call(req));
      if (!equal(got, want[i])) result.failures.push({ name, line: i + 1, got: new TextDecoder().decode(got).slice(0, 300) });
    }
  }
  return result;
}

run().then(
  (r) => { window.vectorResult = r; document.getElementById("out").textContent = JSON.stringify(r, null, 2); },
  (e) => { window.vectorResult = { error: String(e?.stack ?? e) }; document.getElementById("out").textContent = String(e); },
);
