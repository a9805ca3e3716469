/**
 * Query speed benchmark: `ctxsmith context` as a whole process (Node start-up included), with
 * the freshness check (the default) and without it (--no-refresh), beside a bare `node -e 0`
 * start; then queries in one warm process (the MCP server's case), with and without refresh.
 * Tasks are issue texts from a JSONL file (`problem_statement` fields), or built-in ones.
 *
 *   npm run build
 *   node dist/bench/query-bench.js --repo /path/to/indexed/checkout [--tasks FILE.jsonl] [--repo-name owner/name] [--runs 5] [--budget 4000] [--out FILE.md]
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Engine } from "../src/engine.js";
import { median } from "../src/bench/summary.js";
import { benchArgs } from "./args.js";

const opt = benchArgs("query-bench --repo PATH [--tasks FILE.jsonl] [--repo-name owner/name] [--runs N] [--budget N] [--out FILE]", ["repo"]);
const repo = opt("repo")!;
const runs = Number(opt("runs", "5"));
const budget = Number(opt("budget", "4000"));
const out = opt("out");
const cli = fileURLToPath(new URL("../ctxsmith.js", import.meta.url));

function loadTasks(): string[] {
  const file = opt("tasks");
  if (!file) return ["the result is wrong when the input is empty", "TypeError: unsupported operand type(s) in the parser", "add an option to skip hidden files"];
  const name = opt("repo-name");
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { repo: string; problem_statement: string })
    .filter((r) => !name || r.repo === name)
    .map((r) => r.problem_statement)
    .slice(0, 10);
}


function wall(command: string[], input?: string): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, command, { input, encoding: "utf8", maxBuffer: 64 << 20 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${command.join(" ")} failed: ${r.stderr}`);
  return ms;
}

const tasks = loadTasks();
const dir = mkdtempSync(join(tmpdir(), "ctxsmith-qbench-"));
const files = tasks.map((t, i) => {
  const f = join(dir, `task-${i}.txt`);
  writeFileSync(f, t);
  return f;
});

// Make sure the index is current before timing anything.
wall([cli, "index", repo, "--quiet"]);

// Side by side, interleaved, so machine noise hits every variant alike.
const bare: number[] = [];
const fresh: number[] = [];
const noRefresh: number[] = [];
for (let r = 0; r < runs; r++) {
  for (const f of files) {
    bare.push(wall(["-e", "0"]));
    fresh.push(wall([cli, "context", "--task-file", f, "-b", String(budget), "--path", repo, "--json"]));
    noRefresh.push(wall([cli, "context", "--task-file", f, "-b", String(budget), "--path", repo, "--json", "--no-refresh"]));
  }
}

const engine = new Engine(repo);
// Steady state: indexes, encoder and the packed files' texts loaded once, as in a long-running server.
const firstTouch: number[] = [];
for (const task of tasks) {
  const t0 = performance.now();
  await engine.context(task, { budget, refresh: false });
  firstTouch.push(performance.now() - t0);
}
firstTouch.shift(); // the very first query also loads the indexes and the encoder
const warm: number[] = [];
const warmRefresh: number[] = [];
const warmRank: number[] = [];
const overBudget: number[] = [];
// One kind of query per loop: a refresh (git, a stat of every file) between queries would
// measure its after-effects (caches, GC) in the query after it.
const timeAll = async (into: number[], query: (task: string) => Promise<unknown>): Promise<void> => {
  for (let r = 0; r < runs; r++) {
    for (const task of tasks) {
      const t0 = performance.now();
      await query(task);
      into.push(performance.now() - t0);
    }
  }
};
await timeAll(warm, async (task) => {
  const result = await engine.context(task, { budget, refresh: false });
  if (result.tokens > budget) overBudget.push(result.tokens);
});
await timeAll(warmRank, (task) => engine.rank(task, { refresh: false }));
await timeAll(warmRefresh, (task) => engine.context(task, { budget }));
const status = engine.status();
await engine.close();
rmSync(dir, { recursive: true, force: true });

const f = (ms: number): string => `${Math.round(ms)} ms`;
const lines = [
  `## ${new Date().toISOString().slice(0, 10)} · ${repo} · ${status?.totals.files ?? "?"} files`,
  "",
  `Machine: ${cpus()[0]?.model ?? "?"} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}. ${tasks.length} tasks × ${runs} runs, budget ${budget}; medians.`,
  "",
  "| what | median |",
  "|---|---|",
  `| \`node -e 0\` (Node start-up alone) | ${f(median(bare))} |`,
  `| \`ctxsmith context\` whole process (refresh check included) | ${f(median(fresh))} |`,
  `| \`ctxsmith context --no-refresh\` whole process | ${f(median(noRefresh))} |`,
  `| warm \`engine.context\`, first query of a task (its files read and tokenized) | ${median(firstTouch).toFixed(1)} ms |`,
  `| warm \`engine.context\` (refresh: false) | ${median(warm).toFixed(1)} ms |`,
  `| warm \`engine.context\` with the refresh check | ${median(warmRefresh).toFixed(1)} ms |`,
  `| warm \`engine.rank\` (refresh: false) | ${median(warmRank).toFixed(1)} ms |`,
  "",
  `Answers over budget: ${overBudget.length}.`,
  "",
];
process.stdout.write(lines.join("\n"));
if (out) appendFileSync(out, `${lines.join("\n")}\n`);
