/**
 * Workspace benchmark: many real repositories in one long-lived process, as `serve --workspace`
 * holds them. Registers each checkout (a full index each), then measures, warm, `search` and
 * `context` across all of them (medians over the tasks, each asked `--rounds` times), the serving
 * process's memory, and the time to sync one cloned repository after a one-file push.
 *
 *   npm run build
 *   node dist/bench/workspace-bench.js --checkouts DIR,DIR,… --tasks FILE.jsonl [--count 10] [--rounds 3] [--fresh] [--out FILE.md]
 *
 * With `--fresh`, the checkouts' own indexes (`<checkout>/.contextsmith`) are deleted first, so the
 * process indexes every repository cold; without it, existing indexes are brought up to date.
 *
 * `--tasks` is a JSONL file with a `problem_statement` per line (the tuning set will do): the first
 * `--count` are the context tasks; their first backticked identifiers are the search queries.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { Runtime } from "../src/runtime/runtime.js";
import { Workspace } from "../src/workspace/workspace.js";
import { benchArgs, readTasks } from "./args.js";

const opt = benchArgs("workspace-bench --checkouts DIR,DIR,… --tasks FILE.jsonl [--count N] [--rounds N] [--fresh] [--out FILE]", ["checkouts", "tasks"]);
const fresh = process.argv.includes("--fresh");
const checkouts = opt("checkouts")!.split(",");
const count = Number(opt("count", "10"));
const rounds = Number(opt("rounds", "3"));
const { tasks, queries } = readTasks(opt("tasks")!, count);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const mb = (bytes: number): number => Math.round(bytes / 1048576);
const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@x", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@x" } }).trim();

const work = mkdtempSync(join(tmpdir(), "ctxsmith-wsbench-"));
const runtime = new Runtime({ indexThread: true, keepAlive: 30_000 });
const ws = new Workspace({ dataDir: join(work, "data"), runtime, engine: { semantic: false } });
try {
  const lines: string[] = [];
  const t0 = performance.now();
  const added: Array<{ name: string; ms: number; files: number; parsed: number }> = [];
  if (fresh) for (const dir of checkouts) rmSync(join(dir, ".contextsmith"), { recursive: true, force: true });
  for (const dir of checkouts) {
    const name = basename(dir).toLowerCase().replace(/[^a-z0-9._-]/g, "-");
    const t = performance.now();
    let parsed = 0;
    await ws.addRepo(name, dir, { onProgress: (e) => void (e.stage === "parse" && (parsed = e.done)) });
    added.push({ name, ms: Math.round(performance.now() - t), files: (await ws.status()).find((s) => s.name === name)!.files ?? 0, parsed });
  }
  const coldMs = Math.round(performance.now() - t0);

  // Warm: one pass to load every index's derived structures, then the measured rounds.
  for (const q of queries) await ws.search(q, { all: true }, { refresh: false });
  for (const t of tasks) await ws.context(t, { all: true }, { refresh: false });
  const searchMs: number[] = [];
  const contextMs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const s = performance.now();
      await ws.search(q, { all: true }, { refresh: false });
      searchMs.push(performance.now() - s);
    }
    for (const t of tasks) {
      const s = performance.now();
      await ws.context(t, { all: true }, { refresh: false, budget: 4000 });
      contextMs.push(performance.now() - s);
    }
  }
  // The scheduled check a query makes when its interval is up: every repository's no-change run.
  const checkStart = performance.now();
  await ws.sync();
  const checkMs = Math.round(performance.now() - checkStart);
  const rssWarm = mb(process.memoryUsage().rss);
  const heapWarm = mb(process.memoryUsage().heapUsed);

  // Sync after a one-file push: the smallest checkout served as a remote (a bare repository).
  const smallest = [...added].sort((a, b) => a.files - b.files)[0]!;
  const source = checkouts[added.indexOf(smallest)]!;
  const bare = join(work, "remote.git");
  git(work, "clone", "-q", "--bare", source, bare);
  const pusher = join(work, "pusher");
  git(work, "clone", "-q", bare, pusher);
  await ws.addRepo("remote", bare);
  const syncMs: number[] = [];
  const tracked = git(pusher, "ls-files").split("\n").filter((p) => /\.(py|rs|ts|js|go|java)$/.test(p));
  for (let i = 0; i < 5; i++) {
    const file = join(pusher, tracked[i % tracked.length]!);
    writeFileSync(file, `${readFileSync(file, "utf8")}\n// pushed change ${i}\n`);
    git(pusher, "commit", "-qam", `change ${i}`);
    git(pusher, "push", "-q", "origin", "HEAD");
    const s = performance.now();
    const [result] = await ws.sync(["remote"]);
    syncMs.push(performance.now() - s);
    if (!result!.ok || result!.parsed !== 1) throw new Error(`sync did not re-read exactly the pushed file: ${JSON.stringify(result)}`);
  }

  const round1 = (x: number): number => Math.round(x * 10) / 10;
  lines.push(
    `## Workspace of ${checkouts.length} repositories (${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()})`,
    "",
    `Repositories: ${added.map((a) => `${a.name} (${a.files} files, ${a.parsed} parsed, added in ${(a.ms / 1000).toFixed(1)} s)`).join(", ")}; ${added.reduce((n, a) => n + a.files, 0)} files in all, added in ${(coldMs / 1000).toFixed(1)} s ${fresh ? "(cold: no index before)" : "(their existing indexes brought up to date)"}. No embeddings.`,
    "",
    "| measure (warm, across all repositories, one process) | median | min–max |",
    "|---|---|---|",
    `| \`search\` (${queries.length} queries × ${rounds}) | ${round1(median(searchMs))} ms | ${round1(Math.min(...searchMs))}–${round1(Math.max(...searchMs))} ms |`,
    `| \`context\`, 4,000 tokens (${tasks.length} tasks × ${rounds}) | ${round1(median(contextMs))} ms | ${round1(Math.min(...contextMs))}–${round1(Math.max(...contextMs))} ms |`,
    `| sync of a clone after a one-file push (fetch, checkout, incremental index; 5 pushes) | ${Math.round(median(syncMs))} ms | ${Math.round(Math.min(...syncMs))}–${Math.round(Math.max(...syncMs))} ms |`,
    `| the scheduled no-change check of all ${checkouts.length} repositories | ${checkMs} ms | – |`,
    "",
    `Serving process: ${rssWarm} MB RSS warm (JS heap ${heapWarm} MB), peak ${Math.round(process.resourceUsage().maxRSS / 1024)} MB (adding the repositories included).`,
    "",
  );
  const text = lines.join("\n");
  process.stdout.write(text);
  const out = opt("out");
  if (out) appendFileSync(out, `${text}\n`);
} finally {
  await ws.close();
  await runtime.close();
  rmSync(work, { recursive: true, force: true });
}
