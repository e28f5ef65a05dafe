// ratioInterval (web/bench/measure.mjs): the bootstrap interval that
// web/bench/startup.mjs gives for the start-up ratio; and judge
// (web/bench/startup-report.mjs), which judges the goal from it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ratioInterval, summarize } from "../bench/measure.mjs";

/** noisy: n samples around centre, spread by a fixed pseudo-random walk. */
function noisy(n, centre, spread, seed) {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return centre * (1 + spread * (x / 2 ** 31 - 0.5));
  });
}

test("a constant ratio gives an interval of that ratio alone", () => {
  const b = noisy(41, 40, 0.6, 7);
  const a = b.map((v) => v * 1.5);
  const { lo, hi } = ratioInterval(a, b);
  assert.ok(Math.abs(lo - 1.5) < 1e-9 && Math.abs(hi - 1.5) < 1e-9, `${lo}–${hi}`);
});

test("the interval holds the ratio of the medians and narrows with more rounds", () => {
  const widths = [];
  for (const n of [21, 81, 321]) {
    const a = noisy(n, 70, 0.8, 3);
    const b = noisy(n, 44, 0.8, 11);
    const point = summarize(a).median / summarize(b).median;
    const { lo, hi } = ratioInterval(a, b);
    assert.ok(lo <= point && point <= hi, `${n} rounds: ${point} outside ${lo}–${hi}`);
    assert.ok(lo < hi, `${n} rounds: an empty interval`);
    widths.push(hi - lo);
  }
  assert.ok(widths[0] > widths[1] && widths[1] > widths[2], `widths ${widths.join(", ")}`);
});

test("a true ratio well away from the goal puts the whole interval on one side", () => {
  const b = noisy(81, 44, 0.5, 5);
  const a = noisy(81, 44 * 1.3, 0.5, 9);
  const { lo, hi } = ratioInterval(a, b);
  assert.ok(hi < 1.6 && lo > 1.0, `${lo}–${hi}`);
});

test("the same samples give the same interval; another seed draws other rounds", () => {
  const a = noisy(41, 70, 0.8, 3);
  const b = noisy(41, 44, 0.8, 11);
  assert.deepEqual(ratioInterval(a, b), ratioInterval(a, b));
  assert.notDeepEqual(ratioInterval(a, b, { seed: 2 }), ratioInterval(a, b));
});

test("unpaired or empty samples are refused", () => {
  assert.throws(() => ratioInterval([1, 2], [1]), /paired/);
  assert.throws(() => ratioInterval([], []), /paired/);
});

test("the report judges the goal from the interval, and from the ratio when a run has none", async () => {
  const { judge, GOAL } = await import("../bench/startup-report.mjs");
  assert.equal(judge({ ratio: 1.5, ratioInterval: { lo: 1.4, hi: GOAL } }), "**met**");
  assert.equal(judge({ ratio: 1.7, ratioInterval: { lo: GOAL + 0.01, hi: 1.8 } }), "**not met**");
  assert.match(judge({ ratio: 1.5, ratioInterval: { lo: 1.4, hi: GOAL + 0.01 } }), /not shown/);
  assert.match(judge({ ratio: 1.7, ratioInterval: { lo: GOAL - 0.01, hi: 1.8 } }), /not shown/);
  assert.equal(judge({ ratio: GOAL }), "**met**");
  assert.equal(judge({ ratio: GOAL + 0.01 }), "**not met**");
});
