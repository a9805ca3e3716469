/**
 * Indexing benchmark: cold index, no-change and one-file-edit re-index, a CI cache restore (every
 * mtime changed, no content), --jobs 1 against --jobs 2 side by side, peak RSS and disk size.
 * Medians of several runs; every run is a fresh process, as a user or CI runs it.
 *
 *   npm run build
 *   node dist/bench/index-bench.js --repo /path/to/checkout [--runs 3] [--out bench/results-index.md]
 */
import { IndexStore } from "../src/store/store.js";
import { loadLexical } from "../src/store/lexical.js";
import { spawnSync } from "node:child_process";
import { appendFileSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { IndexStats } from "../src/core/types.js";
import { Engine } from "../src/engine.js";
import { median } from "../src/bench/summary.js";
import { benchArgs } from "./args.js";

interface Run {
  wallMs: number;
  stats: IndexStats;
  maxRssKB: number;
}

const opt = benchArgs("index-bench --repo PATH [--runs N] [--out FILE]", ["repo"]);
const repo = opt("repo")!;
const runs = Number(opt("runs", "3"));
const out = opt("out");
const runner = fileURLToPath(new URL("./run-index.js", import.meta.url));
const cli = fileURLToPath(new URL("../ctxsmith.js", import.meta.url));
const indexDir = join(repo, ".contextsmith");

function runIndex(extra: string[]): Run {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [runner, repo!, ...extra], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`index failed: ${r.stderr}`);
  const parsed = JSON.parse(r.stdout) as { stats: IndexStats; maxRssKB: number };
  return { wallMs, ...parsed };
}

/** The CLI as a user runs it (Node start-up included). */
function runCli(): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, "index", repo!, "--quiet"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`ctxsmith index failed: ${r.stderr}`);
  return performance.now() - t0;
}

const ms = (x: number): string => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${Math.round(x)} ms`);
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

function gitFiles(): string[] {
  const r = spawnSync("git", ["ls-files", "-z"], { cwd: repo!, encoding: "utf8", maxBuffer: 1024 * 1024 * 1024 });
  return r.stdout.split("\0").filter((p) => p !== "");
}

// 1. Cold, end to end (git history on), and --jobs 1 vs 2 without git, interleaved so that
//    machine noise hits both sides alike.
const cold: Run[] = [];
const jobs1: Run[] = [];
const jobs2: Run[] = [];
for (let i = 0; i < runs; i++) {
  rmSync(indexDir, { recursive: true, force: true });
  cold.push(runIndex([]));
  log(`cold ${i + 1}/${runs}: ${ms(cold.at(-1)!.wallMs)}`);
  rmSync(indexDir, { recursive: true, force: true });
  jobs2.push(runIndex(["--jobs", "2", "--no-git"]));
  rmSync(indexDir, { recursive: true, force: true });
  jobs1.push(runIndex(["--jobs", "1", "--no-git"]));
  log(`jobs 2 / jobs 1 (no git) ${i + 1}/${runs}: ${ms(jobs2.at(-1)!.wallMs)} / ${ms(jobs1.at(-1)!.wallMs)}`);
}
// Leave a complete index (with history) for the incremental runs.
rmSync(indexDir, { recursive: true, force: true });
const base = runIndex([]);

// 2. No change, as a whole CLI process and as the engine's own time.
const noChangeCli: number[] = [];
const noChangeEngine: number[] = [];
for (let i = 0; i < Math.max(5, runs); i++) {
  noChangeCli.push(runCli());
  noChangeEngine.push(runIndex([]).stats.timings.total ?? 0);
}

// 3. One-file edit: append a comment to a mid-sized source file, re-index.
const sources = gitFiles().filter((p) => /\.(py|ts|js|go|rs|java)$/.test(p));
const victim = sources[Math.floor(sources.length / 2)]!;
const original = readFileSync(join(repo, victim));
const editCli: number[] = [];
const editEngine: number[] = [];
try {
  for (let i = 0; i < Math.max(5, runs); i++) {
    appendFileSync(join(repo, victim), `\n# edit ${i} ${Date.now()}\n`);
    const t0 = performance.now();
    const r = runIndex([]);
    editCli.push(performance.now() - t0);
    editEngine.push(r.stats.timings.total ?? 0);
    if (r.stats.files.parsed !== 1) throw new Error(`expected 1 file re-parsed, got ${r.stats.files.parsed}`);
  }
} finally {
  writeFileSync(join(repo, victim), original);
  runIndex([]);
}

// 4. CI cache restore: every mtime changes, no content does.
const restore: Run[] = [];
for (let i = 0; i < runs; i++) {
  const when = new Date(Date.now() + (i + 1) * 1000);
  for (const p of gitFiles()) {
    try {
      utimesSync(join(repo, p), when, when);
    } catch {
      // deleted or a submodule
    }
  }
  restore.push(runIndex([]));
  if (restore.at(-1)!.stats.files.parsed !== 0) throw new Error("a CI restore re-parsed files");
}

// 5. Loading the lexical index in a warm process (what a query pays on first use).
const loads = { bm25: [] as number[], flexsearch: [] as number[] };
{
  const engine = new Engine(repo);
  for (let i = 0; i < 5; i++) {
    const lex = loadLexical(IndexStore.openForRead(engine.config.indexDir)!);
    let t0 = performance.now();
    lex.bm25.df("index");
    loads.bm25.push(performance.now() - t0);
    t0 = performance.now();
    lex.search("index");
    loads.flexsearch.push(performance.now() - t0);
  }
  await engine.close();
}

const s = base.stats;
const sourceBytes = s.totals.bytes;
const coldMs = median(cold.map((r) => r.wallMs));
const j1 = median(jobs1.map((r) => r.wallMs));
const j2 = median(jobs2.map((r) => r.wallMs));
const stage = (name: string): string => ms(median(cold.map((r) => r.stats.timings[name] ?? 0)));
const rss = Math.max(...cold.map((r) => r.maxRssKB), ...jobs2.map((r) => r.maxRssKB)) * 1024;
const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repo, encoding: "utf8" }).stdout.trim();

const report = `
### ${basename(repo)} @ ${head}

${s.files.seen.toLocaleString("en-US")} files seen, ${s.totals.files.toLocaleString("en-US")} indexed (${mb(sourceBytes)} of source), ${s.totals.symbols.toLocaleString("en-US")} symbols, ${s.totals.calls.toLocaleString("en-US")} calls, ${s.totals.commits.toLocaleString("en-US")} commits.
Machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. Medians of ${runs} runs (5 for incremental), each a fresh process.

| measure | result |
|---|---|
| cold index, end to end (git history on, process wall time) | ${ms(coldMs)} |
| throughput cold | ${(sourceBytes / 1e6 / (coldMs / 1000)).toFixed(2)} MB/s, ${Math.round(s.totals.files / (coldMs / 1000))} files/s |
| stages (cold): walk · plan · parse · git (parallel to parse) · lexical | ${stage("walk")} · ${stage("plan")} · ${stage("parse")} · ${stage("git")} · ${stage("lexical")} |
| no-change re-index: whole CLI process · engine time | ${ms(median(noChangeCli))} · ${ms(median(noChangeEngine))} |
| one-file edit re-index: whole process · engine time | ${ms(median(editCli))} · ${ms(median(editEngine))} |
| CI cache restore (all mtimes new, no content change): engine time | ${ms(median(restore.map((r) => r.stats.timings.total ?? 0)))} (${restore[0]!.stats.files.touched} files hashed, 0 parsed) |
| --jobs 1 vs --jobs 2 (no git, cold, wall) | ${ms(j1)} vs ${ms(j2)}: **${(j1 / j2).toFixed(2)}×** |
| lexical index load, warm process: BM25 statistics · FlexSearch | ${ms(median(loads.bm25))} · ${ms(median(loads.flexsearch))} |
| peak RSS (main + worker threads) | ${mb(rss)} |
| index on disk | ${mb(s.indexBytes)} = ${(s.indexBytes / sourceBytes).toFixed(2)}× the source |
`;
process.stdout.write(report);
if (out) appendFileSync(out, report);
