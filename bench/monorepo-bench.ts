/**
 * Memory against size: a cold `ctxsmith index` of a large tree (the 100,000-file monorepo of issue
 * 18), run as a user runs it, as a whole process, with its resident memory sampled every 100 ms
 * from /proc and matched to the progress it reports (`--progress json`). The table gives the most
 * RSS while each quarter of the files is parsed (the most, not a sample at the mark: a lexical
 * segment written as it fills makes memory a saw), the most of each later stage, the peak, and the
 * slope: how many MB each further 10,000 files add while the parse runs, from the first quarter's
 * most to the last's. `--trace FILE` writes every sample (seconds, files parsed, RSS and anonymous
 * MB). Linux only (/proc).
 *
 *   npm run build
 *   node dist/bench/monorepo-bench.js --repo /tmp/mono [--jobs 2] [--runs 1] [--no-git 1] [--out FILE.md] [--trace FILE.csv]
 *
 * The index folder (`REPO/.contextsmith`) is removed before each run.
 */
import { spawn } from "node:child_process";
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "../src/bench/summary.js";
import { benchArgs, procStatus } from "./args.js";

const opt = benchArgs("monorepo-bench --repo PATH [--jobs N] [--runs N] [--no-git 1] [--out FILE] [--trace FILE]", ["repo"]);
const repo = opt("repo")!;
const jobs = opt("jobs", "2")!;
const runs = Number(opt("runs", "1"));
const noGit = opt("no-git") === "1";
const out = opt("out");
const trace = opt("trace");
if (trace) writeFileSync(trace, "run,seconds,parsed,rss_mb,anon_mb\n");
const CLI = fileURLToPath(new URL("../ctxsmith.js", import.meta.url));
const MARKS = [0.25, 0.5, 0.75, 1];

interface Run {
  wall: number;
  files: number;
  /** The most RSS (MB) while each quarter of the files was parsed, and the most anonymous memory. */
  atMark: number[];
  anonAtMark: number[];
  /** The most RSS (MB) seen in each stage after the parse, in the order they came, and the most anonymous memory. */
  stages: Array<{ stage: string; rss: number; anon: number }>;
  peak: number;
  peakAnon: number;
  summary: string;
}


function once(run: number): Promise<Run> {
  rmSync(join(repo, ".contextsmith"), { recursive: true, force: true });
  const args = [CLI, "index", repo, "--jobs", jobs, "--progress", "json", ...(noGit ? ["--no-git"] : [])];
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let rss = 0;
  let anon = 0;
  let peak = 0;
  let peakAnon = 0;
  let files = 0;
  const atMark: number[] = [];
  const anonAtMark: number[] = [];
  /** The quarter being parsed (an index into MARKS); MARKS.length once the parse is over. */
  let quarter = 0;
  let done = 0;
  const samples: string[] = [];
  const stages: Run["stages"] = [];
  const sample = (): void => {
    const mbOf = procStatus(child.pid!);
    if (!mbOf) return;
    rss = mbOf("VmRSS");
    // Anonymous: heaps and native allocations. The rest of RSS is file-backed: the node binary and
    // the pages of the mapped index this process has touched (page cache, which the kernel can drop).
    anon = mbOf("RssAnon");
    peak = Math.max(peak, mbOf("VmHWM"));
    peakAnon = Math.max(peakAnon, anon);
    if (trace) samples.push(`${run},${((performance.now() - started) / 1000).toFixed(1)},${done},${rss},${anon}`);
    if (quarter < MARKS.length) {
      atMark[quarter] = Math.max(atMark[quarter] ?? 0, rss);
      anonAtMark[quarter] = Math.max(anonAtMark[quarter] ?? 0, anon);
    }
    const last = stages[stages.length - 1];
    if (last) {
      last.rss = Math.max(last.rss, rss);
      last.anon = Math.max(last.anon, anon);
    }
  };
  const timer = setInterval(sample, 100);
  let pending = "";
  let summary = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (summary += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    pending += d;
    for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      let event: { stage?: string; done?: number; total?: number };
      try {
        event = JSON.parse(line) as typeof event;
      } catch {
        summary += `${line}\n`;
        continue;
      }
      if (event.stage === "parse" && event.total) {
        files = event.total;
        done = event.done!;
        sample();
        while (quarter < MARKS.length && done >= MARKS[quarter]! * event.total) quarter++;
        continue;
      }
      sample();
      if (event.stage && event.stage !== "walk" && event.stage !== "plan" && event.stage !== "parse" && stages[stages.length - 1]?.stage !== event.stage) {
        stages.push({ stage: event.stage, rss, anon });
      }
    }
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      clearInterval(timer);
      if (trace) appendFileSync(trace, `${samples.join("\n")}\n`);
      if (code !== 0) reject(new Error(`ctxsmith index exited with ${code}:\n${summary}${pending}`));
      else resolve({ wall: (performance.now() - started) / 1000, files, atMark, anonAtMark, stages, peak, peakAnon, summary: summary.trim() });
    });
  });
}

const results: Run[] = [];
for (let i = 0; i < runs; i++) {
  const run = await once(i + 1);
  results.push(run);
  process.stderr.write(`run ${i + 1}: ${run.wall.toFixed(1)} s, ${run.files} files, RSS ${run.atMark.map((r) => r.toFixed(0)).join(" / ")} MB (anonymous ${run.anonAtMark.map((r) => r.toFixed(0)).join(" / ")}), peak ${run.peak.toFixed(0)} MB (anonymous ${run.peakAnon.toFixed(0)})\n`);
}

const mb = (x: number): string => `${Math.round(x)} MB`;
const files = results[0]!.files;
const stageNames = results[0]!.stages.map((s) => s.stage);
/** One row of the table: a kind of memory at each mark, its slope, each stage's most, the peak. */
const row = (label: string, atMark: (r: Run) => number[], stage: (s: Run["stages"][number]) => number, peak: (r: Run) => number, wall: string): string => {
  const marks = MARKS.map((_, i) => median(results.map((r) => atMark(r)[i] ?? Number.NaN)));
  // MB per 10,000 files while the parse runs, from the first mark to the last.
  const slope = ((marks[3]! - marks[0]!) / (files * (MARKS[3]! - MARKS[0]!))) * 10_000;
  const stages = stageNames.map((_, i) => mb(median(results.map((r) => (r.stages[i] ? stage(r.stages[i]) : Number.NaN)))));
  return `| ${label} | ${marks.map(mb).join(" | ")} | ${slope.toFixed(1)} | ${stages.join(" | ")} | ${mb(median(results.map(peak)))} | ${wall} |`;
};
const report = [
  `### ${repo} — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  "",
  `\`ctxsmith index --jobs ${jobs}${noGit ? " --no-git" : ""}\`, cold, ${files.toLocaleString("en")} files to parse; medians of ${runs} run${runs > 1 ? "s" : ""}, the most RSS of the whole process (main and worker threads) while each quarter of the files was parsed, and in each later stage; anonymous: heaps and native allocations, the rest being file-backed pages (the node binary, the mapped index).`,
  "",
  "| files parsed | 0–25 % | 25–50 % | 50–75 % | 75–100 % | MB per 10,000 more files | " + stageNames.map((s) => `${s} stage`).join(" | ") + " | peak | wall |",
  "|---|---|---|---|---|---|" + stageNames.map(() => "---|").join("") + "---|---|",
  row("RSS", (r) => r.atMark, (s) => s.rss, (r) => r.peak, `${median(results.map((r) => r.wall)).toFixed(1)} s`),
  row("of it anonymous", (r) => r.anonAtMark, (s) => s.anon, (r) => r.peakAnon, ""),
  "",
  "```",
  results[results.length - 1]!.summary,
  "```",
  "",
].join("\n");
process.stdout.write(report);
if (out) appendFileSync(out, `${report}\n`);
