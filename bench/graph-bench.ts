/**
 * Code-graph benchmark: what resolution adds to a cold index (the graph stage's share of each run,
 * measured inside the same runs), its cost after a one-file edit, and graph queries warm (one
 * engine, repeated) and as a whole CLI process.
 *
 *   npm run build
 *   node dist/bench/graph-bench.js --repo /path/to/checkout --symbol NAME [--depth 10] [--edit FILE] [--runs 3] [--out FILE]
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { IndexStats } from "../src/core/types.js";
import { Engine } from "../src/engine.js";
import { median } from "../src/bench/summary.js";
import { benchArgs } from "./args.js";

const opt = benchArgs("graph-bench --repo PATH --symbol NAME [--depth N] [--edit FILE] [--runs N] [--out FILE]", ["repo", "symbol"]);
const repo = opt("repo")!;
const symbol = opt("symbol")!;
const depth = Number(opt("depth", "10"));
const runs = Number(opt("runs", "3"));
const edit = opt("edit");
const out = opt("out");
const runner = fileURLToPath(new URL("./run-index.js", import.meta.url));
const cli = fileURLToPath(new URL("../ctxsmith.js", import.meta.url));

const log = (line: string): void => void process.stderr.write(`${line}\n`);
const ms = (x: number): string => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`);

function index(): IndexStats {
  const r = spawnSync(process.execPath, [runner, repo], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`index failed: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { stats: IndexStats }).stats;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await work();
  return { ms: performance.now() - t0, value };
}

// 1. Cold index: the graph stage's time against the rest of the same run.
const cold: Array<{ total: number; graph: number }> = [];
for (let i = 0; i < runs; i++) {
  for (const file of ["index.lmdb", "index.lmdb-lock"]) rmSync(join(repo, ".contextsmith", file), { force: true });
  const stats = index();
  cold.push({ total: stats.timings.total!, graph: stats.timings.graph ?? 0 });
  log(`cold ${i + 1}/${runs}: ${ms(stats.timings.total!)}, graph ${ms(stats.timings.graph ?? 0)} (${stats.graphResolved} files)`);
}
const coldTotal = median(cold.map((c) => c.total));
const coldGraph = median(cold.map((c) => c.graph));
const share = median(cold.map((c) => c.graph / (c.total - c.graph)));

// 2. One-file edit of a central file: its dependents are resolved again.
const edits: Array<{ total: number; graph: number; resolved: number }> = [];
if (edit) {
  const file = join(repo, edit);
  const original = readFileSync(file);
  try {
    for (let i = 0; i < 5; i++) {
      writeFileSync(file, Buffer.concat([original, Buffer.from(`\n# bench edit ${i}\n`)]));
      const stats = index();
      edits.push({ total: stats.timings.total!, graph: stats.timings.graph ?? 0, resolved: stats.graphResolved });
    }
  } finally {
    writeFileSync(file, original);
    index();
  }
}

// 3. Queries in one engine: the first answer loads the graph, the next ones are warm.
const engine = new Engine(repo);
const first = await timed(() => engine.impact(symbol, { depth, refresh: false }));
const impactWarm: number[] = [];
const callersWarm: number[] = [];
const symbolWarm: number[] = [];
for (let i = 0; i < 20; i++) {
  impactWarm.push((await timed(() => engine.impact(symbol, { depth, refresh: false }))).ms);
  callersWarm.push((await timed(() => engine.callers(symbol, { refresh: false }))).ms);
  symbolWarm.push((await timed(() => engine.symbol(symbol, { refresh: false }))).ms);
}
const refreshed = await timed(() => engine.impact(symbol, { depth }));
await engine.close();
const impact = first.value;

// 4. Whole processes, as an agent's shell runs them.
const processMs = (args: string[]): number => {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [cli, ...args, "--path", repo, "--json", "--no-refresh"], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`ctxsmith ${args.join(" ")} failed: ${r.stderr}`);
    times.push(performance.now() - t0);
  }
  return median(times);
};
const cliImpact = processMs(["impact", symbol, "--depth", String(depth)]);
const cliSymbol = processMs(["symbol", symbol]);

const report = `## Code graph: ${basename(repo)} (${new Date().toISOString().slice(0, 10)})

Machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. Medians.

| measure | value |
|---|---|
| cold index, total (${runs} runs) | ${ms(coldTotal)} |
| cold index, graph stage (resolution, defs, PageRank) | ${ms(coldGraph)} |
| graph stage / rest of the same run | ${(share * 100).toFixed(1)}% (target ≤ 25%) |
${edit ? `| one-file edit of \`${edit}\`: re-index total (5 runs) | ${ms(median(edits.map((e) => e.total)))} |
| … graph stage | ${ms(median(edits.map((e) => e.graph)))} (${median(edits.map((e) => e.resolved))} files resolved again) |
` : ""}| \`impact ${symbol} --depth ${depth}\`: callers | ${impact.counts.symbols} symbols in ${impact.counts.files} files (${impact.counts.tests} test files), by depth ${impact.byDepth.join("/")} |
| impact, first in an engine (loads the graph) | ${ms(first.ms)} |
| impact, warm (20 runs) | ${ms(median(impactWarm))} (target < 100 ms) |
| impact with the no-change refresh check | ${ms(refreshed.ms)} |
| callers, warm | ${ms(median(callersWarm))} |
| symbol, warm | ${ms(median(symbolWarm))} |
| \`ctxsmith impact\` whole process, --no-refresh (5 runs) | ${ms(cliImpact)} |
| \`ctxsmith symbol\` whole process, --no-refresh (5 runs) | ${ms(cliSymbol)} |
`;
process.stdout.write(report);
if (out) appendFileSync(out, `${report}\n`);
