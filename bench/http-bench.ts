/**
 * HTTP server benchmark: `ctxsmith serve --http --workspace` over many real repositories, as its own
 * process, driven over loopback by concurrent clients from this one. Measures the warm latency of
 * `POST /api/v1/search` and `POST /api/v1/context` (one client at a time, then `--clients` at once,
 * a bounded number of requests), the server's memory (RSS and its peak, from /proc), and the size of
 * the web UI's bundle.
 *
 *   npm run build
 *   node dist/bench/http-bench.js --checkouts DIR,DIR,… --tasks FILE.jsonl [--count 10] [--clients 20] [--requests 400] [--out FILE.md]
 *
 * The checkouts keep their own indexes (`<checkout>/.contextsmith`): index them first (the workspace
 * benchmark does) or the first registration indexes them cold. No embeddings.
 */
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { benchArgs, readTasks } from "./args.js";

const opt = benchArgs("http-bench --checkouts DIR,DIR,… --tasks FILE.jsonl [--count N] [--clients N] [--requests N] [--out FILE]", ["checkouts", "tasks"]);
const checkouts = opt("checkouts")!.split(",");
const count = Number(opt("count", "10"));
const clients = Number(opt("clients", "20"));
const requests = Number(opt("requests", "400"));
const { tasks, queries } = readTasks(opt("tasks")!, count);

const dist = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(dist, "ctxsmith.js");
const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const round1 = (x: number): number => Math.round(x * 10) / 10;
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
const memory = (pid: number): { rss: number; peak: number } => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string): number => Math.round(Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
  return { rss: field("VmRSS"), peak: field("VmHWM") };
};

const work = mkdtempSync(join(tmpdir(), "ctxsmith-httpbench-"));
const dataDir = join(work, "data");
const env = { ...process.env, CTXSMITH_DATA_DIR: dataDir, CTXSMITH_EMBED_PROVIDER: "none" };
for (const dir of checkouts) {
  const name = basename(dir).toLowerCase().replace(/[^a-z0-9._-]/g, "-");
  const added = spawnSync(process.execPath, [cli, "repo", "add", name, dir], { env, encoding: "utf8" });
  if (added.status !== 0) throw new Error(`repo add ${name} failed: ${added.stderr}`);
}
const server = spawn(process.execPath, [cli, "serve", "--http", "127.0.0.1:0", "--workspace"], { env, stdio: ["ignore", "ignore", "pipe"] });
try {
  const url = await new Promise<string>((resolve, reject) => {
    let err = "";
    server.stderr.on("data", (d: Buffer) => {
      err += d.toString();
      const found = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(err);
      if (found) resolve(found[1]!);
    });
    server.once("exit", (code) => reject(new Error(`the server exited (${code}): ${err}`)));
  });
  const post = async (path: string, body: unknown): Promise<number> => {
    const start = performance.now();
    const response = await fetch(`${url}/api/v1${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return performance.now() - start;
  };
  const search = (i: number) => post("/search", { query: queries[i % queries.length] });
  const context = (i: number) => post("/context", { task: tasks[i % tasks.length], budget: 4000 });

  // Warm every repository's index (and let the first background checks finish).
  for (let i = 0; i < queries.length; i++) await search(i);
  for (let i = 0; i < tasks.length; i++) await context(i);
  await new Promise((r) => setTimeout(r, 3000));
  for (let i = 0; i < queries.length; i++) await search(i);

  const sequential = async (run: (i: number) => Promise<number>, n: number): Promise<number[]> => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) times.push(await run(i));
    return times;
  };
  const concurrent = async (run: (i: number) => Promise<number>, n: number): Promise<{ times: number[]; wallMs: number }> => {
    const times: number[] = [];
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < n) times.push(await run(next++));
      }),
    );
    return { times, wallMs: performance.now() - start };
  };
  const searchOne = await sequential(search, queries.length * 3);
  const searchMany = await concurrent(search, requests);
  const contextOne = await sequential(context, tasks.length * 2);
  const contextMany = await concurrent(context, Math.max(clients, Math.round(requests / 4)));
  const mem = memory(server.pid!);

  const js = readFileSync(join(dist, "ui", "main.js"));
  const css = readFileSync(join(dist, "ui", "main.css"));
  const html = readFileSync(join(dist, "ui", "index.html"));
  const row = (label: string, times: number[], wallMs?: number) =>
    `| ${label} | ${times.length} | ${round1(percentile(times, 50))} ms | ${round1(percentile(times, 95))} ms | ${round1(Math.max(...times))} ms | ${wallMs ? `${Math.round((times.length / wallMs) * 1000)}/s` : "–"} |`;
  const text = [
    `## HTTP server over ${checkouts.length} repositories (${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()})`,
    "",
    `\`ctxsmith serve --http --workspace\` as its own process; clients in another process over loopback. Repositories: ${checkouts.map((c) => basename(c)).join(", ")}. Queries: the first backticked identifier of ${queries.length} tuning tasks; tasks: those ${tasks.length} problem statements. No embeddings; warm.`,
    "",
    "| request (warm) | requests | median | p95 | slowest | throughput |",
    "|---|---|---|---|---|---|",
    row("`POST /search`, 1 client", searchOne),
    row(`\`POST /search\`, ${clients} clients at once`, searchMany.times, searchMany.wallMs),
    row("`POST /context` (4,000 tokens), 1 client", contextOne),
    row(`\`POST /context\` (4,000 tokens), ${clients} clients at once`, contextMany.times, contextMany.wallMs),
    "",
    `Server memory after the runs: ${mem.rss} MB RSS, peak ${mem.peak} MB.`,
    "",
    `Web UI bundle: main.js ${kb(js.length)} (${kb(gzipSync(js).length)} gzipped), main.css ${kb(css.length)} (${kb(gzipSync(css).length)} gzipped), index.html ${kb(html.length)}; nothing loaded from elsewhere.`,
    "",
  ].join("\n");
  process.stdout.write(text);
  const out = opt("out");
  if (out) appendFileSync(out, `${text}\n`);
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  rmSync(work, { recursive: true, force: true });
}
