// The task benchmark's report: the table of what each agent spent per task
// (tokens read, steps, success, sensitive values seen) and its totals, from
// build/bench-tasks.json (tasks-run.mjs). report.mjs puts tasksSection() at
// the top of BENCHMARKS.md; run as a script, this file writes the same
// section into BENCHMARKS.md and the summary into README.md's "Measured"
// section (between the tasks markers) without touching the rest.
//
//   node web/bench/tasks-report.mjs
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const INPUT = join(repo, "build", "bench-tasks.json");
export const BEGIN = "<!-- tasks:begin (web/bench/tasks-report.mjs) -->";
export const END = "<!-- tasks:end -->";

const int = (x) => Math.round(x).toLocaleString("en");
const ratio = (x) => (!Number.isFinite(x) ? "–" : x >= 10 ? `${int(x)}×` : x >= 1 ? `${x.toFixed(1)}×` : `${x.toFixed(2)}×`);
const table = (head, rows) => [`| ${head.join(" | ")} |`, `| ${head.map(() => "---").join(" | ")} |`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");

/** readTasks returns the parsed build/bench-tasks.json, or null when the benchmark did not run. */
export function readTasks(file = INPUT) {
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null;
}

/**
 * totals sums one agent's figures over the tasks.
 * @param {any[]} results
 * @param {"dom" | "pinhole"} agent
 */
function totals(results, agent) {
  const rs = results.filter((r) => r.agent === agent);
  const kinds = {};
  for (const r of rs) for (const [k, n] of Object.entries(r.sensitiveKinds)) kinds[k] = (kinds[k] ?? 0) + n;
  return {
    tokens: rs.reduce((n, r) => n + r.tokens, 0), steps: rs.reduce((n, r) => n + r.steps, 0),
    done: rs.filter((r) => r.success).length, tasks: rs.length, sensitive: rs.reduce((n, r) => n + r.sensitive, 0), kinds,
  };
}

/** rowsOf pairs each task with its two results. */
function rowsOf(data) {
  return data.tasks.map((t) => ({
    t, dom: data.results.find((r) => r.task === t.name && r.agent === "dom"),
    ph: data.results.find((r) => r.task === t.name && r.agent === "pinhole"),
  }));
}

const done = (r) => (r ? (r.success ? "yes" : `**no** (${r.failure})`) : "–");

/** wrapText breaks a paragraph into lines of at most 76 characters. */
function wrapText(text) {
  const lines = [];
  let line = "";
  for (const w of text.split(/\s+/)) {
    if (line && line.length + 1 + w.length > 76) { lines.push(line); line = w; } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines.join("\n");
}

/** median of a list of numbers. */
function median(xs) {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : NaN;
}

/** mainTable is the per-task table with its totals row; short names only when brief. */
function mainTable(data, brief = false) {
  const D = totals(data.results, "dom"), P = totals(data.results, "pinhole");
  const rows = rowsOf(data).map(({ t, dom, ph }) => [
    brief ? `\`${t.name}\`` : `\`${t.name}\`: ${t.ask}`, int(t.orders),
    dom ? int(dom.tokens) : "–", dom ? int(dom.steps) : "–", done(dom), dom ? int(dom.sensitive) : "–",
    ph ? int(ph.tokens) : "–", ph ? int(ph.steps) : "–", done(ph), ph ? int(ph.sensitive) : "–",
    dom && ph ? ratio(dom.tokens / ph.tokens) : "–",
  ]);
  rows.push([
    `**total** (${data.tasks.length} tasks)`, "",
    `**${int(D.tokens)}**`, `**${int(D.steps)}**`, `**${D.done} of ${D.tasks}**`, `**${int(D.sensitive)}**`,
    `**${int(P.tokens)}**`, `**${int(P.steps)}**`, `**${P.done} of ${P.tasks}**`, `**${int(P.sensitive)}**`,
    `**${ratio(D.tokens / P.tokens)}**`,
  ]);
  return table(["task", "orders", "DOM agent: tokens read", "steps", "done", "sensitive values seen",
    "Pinhole agent: tokens read", "steps", "done", "sensitive values seen", "tokens, DOM ÷ Pinhole"], rows);
}

/** headline is the sentence of totals used in both documents. */
function headline(data) {
  const D = totals(data.results, "dom"), P = totals(data.results, "pinhole");
  const pairs = rowsOf(data).filter((x) => x.dom && x.ph);
  const fewer = pairs.filter((x) => x.ph.tokens < x.dom.tokens).length;
  const more = pairs.filter((x) => x.ph.tokens > x.dom.tokens).map((x) => `\`${x.t.name}\``);
  const kinds = (k) => Object.entries(k).map(([what, n]) => `${int(n)} ${what}`).join(", ") || "none";
  const perTask = median(pairs.map((x) => x.dom.tokens / x.ph.tokens));
  return wrapText(`Over the ${data.tasks.length} tasks the DOM agent read ${int(D.tokens)} tokens in ${int(D.steps)} steps and ` +
    `finished ${D.done} of ${D.tasks}; the Pinhole agent read ${int(P.tokens)} tokens in ${int(P.steps)} steps and finished ` +
    `${P.done} of ${P.tasks} (${ratio(D.tokens / P.tokens)} fewer tokens, ${ratio(D.steps / P.steps)} fewer steps in total; ` +
    `the median task took ${ratio(perTask)} fewer tokens). ` +
    `Pinhole read fewer tokens in ${fewer} of ${pairs.length} tasks${more.length ? `, more in ${more.join(", ")}` : ""}. ` +
    `Sensitive values seen (distinct per task, summed): DOM agent ${int(D.sensitive)} (${kinds(D.kinds)}); Pinhole agent ${int(P.sensitive)}.`);
}

/** when says when and where the run was made. */
const when = (data) =>
  `${data.date.replace("T", " ").replace(/\.\d+Z$/, " UTC")}, Chromium ${data.chromium}, ` +
  `load average ${data.loadAverageAtStart.map((x) => x.toFixed(2)).join(", ")} at the start, ${data.seconds} s` +
  `${data.partial ? " — PARTIAL RUN (--only)" : ""}`;

/**
 * tasksSection is the section at the top of BENCHMARKS.md.
 * @param {any} data build/bench-tasks.json, or null
 */
export function tasksSection(data = readTasks()) {
  if (!data) return "## What an agent spends to finish a task\n\nnot run (`make bench-tasks` writes build/bench-tasks.json).\n";
  const how = table(["task", "DOM agent (aria snapshot, refs)", "Pinhole agent (contexts, capabilities)"],
    data.tasks.map((t) => [`\`${t.name}\``, t.how?.dom ?? "", t.how?.pinhole ?? ""]));
  const pick = (name) => rowsOf(data).find((x) => x.t.name === name && x.dom && x.ph);
  const vs = (name) => {
    const x = pick(name);
    return x ? ` (Pinhole ${int(x.ph.tokens)} tokens, DOM agent ${int(x.dom.tokens)})` : "";
  };
  return `## What an agent spends to finish a task

${mainTable(data)}

${headline(data)}

Run: ${when(data)}. \`make bench-tasks\` (web/bench/tasks.mjs, tasks-run.mjs)
writes it; the tokens are ${data.tokenizer.package} ${data.tokenizer.version}, \`${data.tokenizer.encoding}\`.

Each task runs twice on the demo page in headless Chromium, each time in a
fresh browser context, with a scripted agent (a deterministic program, not
a language model) following the best strategy its interface allows:

- **DOM agent**: reads Playwright's aria snapshot of the orders console
  (\`locator('#console').ariaSnapshot({mode: 'ai'})\`, what browser-automation
  agents read) and acts through its element refs (\`aria-ref=e12\`): clicks,
  picks options, types, reads error text. It finds controls by role and
  accessible name, knows only what the snapshot says, pages to see rows not
  rendered, and uses the console's filter and sort where a person would.
  After an action it looks again when it needs the result (the page redraws,
  and refs of the old snapshot no longer resolve).
- **Pinhole agent**: reads contexts (\`describe\` with windows of up to 50
  records or a record selection) and executes capabilities through the
  page's bridge (\`window.demo.pinhole\`, what an in-page agent or a WebMCP tool
  calls); it reads every answer, including the \`after\` of an execute.

"Tokens read": everything the agent received (snapshots; describe and
execute answers as text); neither agent's tool definitions are counted. "Steps": observations plus actions. "Done": checked
afterwards against the app's store and backend (order statuses and
carriers, the open side panel, the notices of refunds and exports) and the
agent's answer against the real data, never self-reported. "Sensitive values
seen": the planted values of the demo store (\`plantedValues\` in
web/src/domsnapshot.js: session token, trace id, the user's e-mail, and per
order the customer's e-mail, phone, id and street, the card number, the
payment auth code, the internal note) found whole in what the agent read,
distinct per task. The environment moves where a task says so: the user
changes the filter, or another user ships the order just before the agent
acts.

${how}

Both agents have the console's list controls: the DOM agent its Status and
Sort boxes, the Pinhole agent the manifest's \`orders.view\` capability
(filter and sort, the same choices; testdata/orders/manifest.json).

Where Pinhole costs more: the manifest declares no search, so finding a
customer's order means a window of 50 records, where the DOM agent pages
and stops at the row${vs("why-not-shippable")}. Every describe repeats
\`recordIds\` (every referenceable id, up to 1,000): among 1,000 orders the
largest total takes two describes of one record around an
\`orders.view\`${vs("largest-total-1000")}, most of it ids. A search
capability, or a smaller id list on paging requests, would remove most of
it.

Where the DOM agent costs more: what the list does not show (notes are
only in the side panel) means opening every order${vs("find-note-mentions")},
and the side panel shows the customer's e-mail, phone, address, card and the
internal note; reaching a row far down means paging${vs("page-to-last-1000")};
every redraw invalidates the refs of the last snapshot, so each action is
followed by another snapshot.
`;
}

/**
 * tasksSummary is the block at the top of README.md's "Measured" section.
 * @param {any} data
 */
export function tasksSummary(data = readTasks()) {
  if (!data) return "What an agent spends to finish a task: not run (`make bench-tasks`).\n";
  return `What an agent spends to finish a task on the demo, per task and in
total: a scripted agent reading Playwright's aria snapshot and acting
through its refs, against one reading Pinhole contexts and executing
capabilities (the tasks, strategies, method and run in
[BENCHMARKS.md](BENCHMARKS.md)):

${mainTable(data, true)}

${headline(data)}
`;
}

/** wrap puts a block between the tasks markers. */
export const wrap = (block) => `${BEGIN}\n${block.trimEnd()}\n${END}`;

/** splice replaces the text between the tasks markers of file, or inserts it after the line `after`. */
export function splice(text, block, after) {
  const wrapped = wrap(block);
  const a = text.indexOf(BEGIN), b = text.indexOf(END);
  if (a >= 0 && b > a) return text.slice(0, a) + wrapped + text.slice(b + END.length);
  const i = text.indexOf(after);
  if (i < 0) throw new Error(`no "${after.trim()}" to put the task table after`);
  const j = text.indexOf("\n", i) + 1;
  return `${text.slice(0, j)}\n${wrapped}\n${text.slice(j)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const data = readTasks();
  if (!data) throw new Error("no build/bench-tasks.json: run node web/bench/tasks-run.mjs first");
  const bm = join(repo, "BENCHMARKS.md"), readme = join(repo, "README.md");
  writeFileSync(bm, splice(readFileSync(bm, "utf8"), tasksSection(data), "# Benchmarks"));
  writeFileSync(readme, splice(readFileSync(readme, "utf8"), tasksSummary(data), "## Measured"));
  process.stderr.write("[tasks] wrote the task table into BENCHMARKS.md and README.md\n");
}
