/**
 * Memory benchmark: one long-lived process holding many repositories, as a server does. Copies an
 * indexed checkout's index N times (one index per "repository", the same sources), then in a fresh
 * process opens N engines, brings each index up to date (a no-change run) and warms it with a
 * context query and an impact query, and reports RSS after each repository, at the end, and the
 * process's peak. Two layouts side by side: every engine on one shared Runtime (index thread, one
 * token counter), and every engine with its own runtime (what each Engine had before).
 *
 *   npm run build
 *   node dist/bench/memory-bench.js --repo /path/to/indexed/checkout [--copies 10] [--task TEXT] [--symbol NAME] [--out FILE.md]
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Engine } from "../src/engine.js";
import { Runtime } from "../src/runtime/runtime.js";
import { benchArgs, procStatus } from "./args.js";

interface ChildReport {
  layout: string;
  afterEach: number[];
  final: number;
  afterGc: number;
  /** Anonymous memory (heaps, native allocations) and file-backed pages (the mapped LMDB files, code) at the end, from /proc. */
  anon: number;
  file: number;
  peak: number;
  heapUsed: number;
  ms: number;
}

const opt = benchArgs("memory-bench --repo PATH [--copies N] [--task TEXT] [--symbol NAME] [--out FILE]", ["repo"]);
const repo = opt("repo")!;
const copies = Number(opt("copies", "10"));
const task = opt("task", "simplify returns a wrong result for a rational function with a symbolic exponent")!;
const symbol = opt("symbol", "sympify")!;
const mb = (bytes: number): number => Math.round(bytes / 1048576);

/** RssAnon and RssFile of this process in MB (Linux; zeros elsewhere). */
function rssParts(): { anon: number; file: number } {
  const mbOf = procStatus("self");
  return { anon: Math.round(mbOf?.("RssAnon") ?? 0), file: Math.round(mbOf?.("RssFile") ?? 0) };
}

async function child(layout: "shared" | "separate", dirs: string[]): Promise<ChildReport> {
  const t0 = performance.now();
  const shared = layout === "shared" ? new Runtime({ indexThread: true, keepAlive: 30_000 }) : null;
  const engines: Engine[] = [];
  const afterEach: number[] = [];
  for (const indexDir of dirs) {
    const engine = new Engine(repo, { indexDir, ...(shared ? { runtime: shared } : {}) });
    engines.push(engine);
    await engine.index();
    await engine.context(task, { refresh: false });
    await engine.impact(symbol, { refresh: false, depth: 3 });
    afterEach.push(mb(process.memoryUsage().rss));
  }
  const final = mb(process.memoryUsage().rss);
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const report = { layout, afterEach, final, afterGc: mb(process.memoryUsage().rss), ...rssParts(), peak: Math.round(process.resourceUsage().maxRSS / 1024), heapUsed: mb(process.memoryUsage().heapUsed), ms: Math.round(performance.now() - t0) };
  for (const engine of engines) await engine.close();
  await shared?.close();
  return report;
}

if (opt("child")) {
  const report = await child(opt("child") as "shared" | "separate", opt("dirs")!.split(","));
  process.stdout.write(`${JSON.stringify(report)}\n`);
} else {
  const work = mkdtempSync(join(tmpdir(), "ctxsmith-memory-"));
  try {
    // One up-to-date index first, then its copies (same sources, so each copy's refresh is a no-change run).
    const warm = new Engine(repo);
    await warm.index();
    await warm.close();
    const dirs = Array.from({ length: copies }, (_, i) => {
      const dir = join(work, `index-${i}`);
      cpSync(join(repo, ".contextsmith"), dir, { recursive: true, preserveTimestamps: true });
      return dir;
    });
    const self = fileURLToPath(import.meta.url);
    const reports: ChildReport[] = [];
    for (const layout of ["shared", "separate"]) {
      const r = spawnSync(process.execPath, ["--expose-gc", self, "--repo", repo, "--child", layout, "--dirs", dirs.join(","), "--task", task, "--symbol", symbol], { encoding: "utf8", maxBuffer: 1 << 26 });
      if (r.status !== 0) throw new Error(`${layout} failed: ${r.stderr}`);
      reports.push(JSON.parse(r.stdout.trim().split("\n").pop()!) as ChildReport);
    }
    const lines = [
      `### ${basename(repo)}: ${copies} repositories in one process`,
      "",
      `Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. One fresh process per layout; each repository: a no-change index run, one \`context\` and one \`impact ${symbol} --depth 3\`.`,
      "",
      "| layout | RSS after 1 · 2 · 5 · N repositories | RSS at the end | after a full GC: anonymous + mapped files | peak RSS | JS heap | time |",
      "|---|---|---|---|---|---|---|",
      ...reports.map((r) => `| ${r.layout === "shared" ? "one shared Runtime (index thread)" : "a runtime per engine"} | ${[0, 1, 4, r.afterEach.length - 1].map((i) => r.afterEach[i]).join(" · ")} MB | ${r.final} MB | ${r.afterGc} MB: ${r.anon} + ${r.file} MB | ${r.peak} MB | ${r.heapUsed} MB | ${(r.ms / 1000).toFixed(1)} s |`),
      "",
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    const out = opt("out");
    if (out) appendFileSync(out, `${lines.join("\n")}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
