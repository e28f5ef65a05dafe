// functionNames names the functions of a stripped WebAssembly module from a
// build of the same sources that kept its names (the name section's
// function names). The two builds must have the same code section, byte for
// byte; otherwise the indices could name the wrong functions, and null is
// returned. startup.mjs uses it to say which functions V8 recompiled with
// TurboFan during a start (V8's trace gives only their indices).

/**
 * sections splits a module into its sections.
 * @param {Uint8Array} b the module's bytes
 * @returns {{id: number, start: number, end: number}[]}
 */
function sections(b) {
  if (b.length < 8 || b[0] !== 0 || b[1] !== 0x61 || b[2] !== 0x73 || b[3] !== 0x6d) throw new Error("not a WebAssembly module");
  const out = [];
  let p = 8;
  while (p < b.length) {
    const id = b[p++];
    const [len, q] = leb(b, p);
    out.push({ id, start: q, end: q + len });
    p = q + len;
  }
  return out;
}

/**
 * leb reads an unsigned LEB128 number at p.
 * @param {Uint8Array} b
 * @param {number} p
 * @returns {[number, number]} the number and the position after it
 */
function leb(b, p) {
  let n = 0;
  let shift = 0;
  for (;;) {
    const x = b[p++];
    if (x === undefined) throw new Error("truncated LEB128 number");
    n += (x & 0x7f) * 2 ** shift;
    if (!(x & 0x80)) return [n, p];
    shift += 7;
  }
}

/** code returns a module's code section, or an empty one. @param {Uint8Array} b */
function code(b) {
  const s = sections(b).find((x) => x.id === 10);
  return s ? b.subarray(s.start, s.end) : new Uint8Array();
}

/**
 * functionNames maps function indices (imports counted, as V8 counts them)
 * to the names in named's name section, when stripped and named have the
 * same code section; else null.
 * @param {Uint8Array} stripped the module measured
 * @param {Uint8Array} named the same sources built with names
 * @returns {Map<number, string> | null}
 */
export function functionNames(stripped, named) {
  const a = code(stripped);
  const b = code(named);
  if (a.length !== b.length || !a.every((x, i) => x === b[i])) return null;
  const decoder = new TextDecoder();
  const names = new Map();
  for (const s of sections(named)) {
    if (s.id !== 0) continue;
    let [len, p] = leb(named, s.start);
    if (decoder.decode(named.subarray(p, p + len)) !== "name") continue;
    p += len;
    while (p < s.end) {
      const sub = named[p++];
      const [size, q] = leb(named, p);
      p = q;
      if (sub === 1) {
        let [count, r] = leb(named, p);
        for (; count > 0; count--) {
          const [index, r1] = leb(named, r);
          const [n, r2] = leb(named, r1);
          names.set(index, decoder.decode(named.subarray(r2, r2 + n)));
          r = r2 + n;
        }
      }
      p += size;
    }
  }
  return names;
}
