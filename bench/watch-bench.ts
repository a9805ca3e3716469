/**
 * Watch benchmark: what `ctxsmith watch` costs while nothing changes, and how fast an edit reaches
 * the index. Starts the watcher on a checkout as a separate process, lets it settle, then samples
 * its CPU time and RSS from /proc every few seconds over a bounded idle window (the "idle
 * hour" as a sample: CPU seconds per minute and RSS drift), counts its inotify watches, and then
 * times edit → index run over a few one-file edits (from the write to the run's line on stdout).
 *
 *   npm run build
 *   node dist/bench/watch-bench.js --repo /path/to/checkout [--idle-seconds 120] [--edits 5] [--out FILE.md]
 */
import { spawn } from "node:child_process";
import { appendFileSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchArgs } from "./args.js";

const opt = benchArgs("watch-bench --repo PATH [--idle-seconds N] [--edits N] [--out FILE]", ["repo"]);
const repo = opt("repo")!;
const idleSeconds = Number(opt("idle-seconds", "120"));
const edits = Number(opt("edits", "5"));
const cli = fileURLToPath(new URL("../ctxsmith.js", import.meta.url));
const ticks = 100; // USER_HZ on Linux

const child = spawn(process.execPath, [cli, "watch", repo, "--json"], { stdio: ["ignore", "pipe", "pipe"] });
const lines: Array<{ at: number; line: Record<string, unknown> }> = [];
let out = "";
child.stdout.setEncoding("utf8").on("data", (d: string) => {
  out += d;
  let nl: number;
  while ((nl = out.indexOf("\n")) >= 0) {
    lines.push({ at: performance.now(), line: JSON.parse(out.slice(0, nl)) as Record<string, unknown> });
    out = out.slice(nl + 1);
  }
});
let err = "";
child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU seconds (user + system) and RSS of the watcher process and its threads. */
function sample(): { cpu: number; rss: number } {
  const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const cpu = (Number(fields[11]) + Number(fields[12])) / ticks;
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))![1]) * 1024;
  return { cpu, rss };
}

/** The inotify watches the process holds. */
function inotifyWatches(): number {
  let watches = 0;
  for (const fd of readdirSync(`/proc/${child.pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${child.pid}/fd/${fd}`) !== "anon_inode:inotify") continue;
      watches += readFileSync(`/proc/${child.pid}/fdinfo/${fd}`, "utf8").split("\n").filter((l) => l.startsWith("inotify")).length;
    } catch {
      // gone meanwhile
    }
  }
  return watches;
}

try {
  for (let waited = 0; !err.includes("watching"); waited += 100) {
    if (waited > 600_000 || child.exitCode !== null) throw new Error(`the watcher did not start:\n${err}`);
    await sleep(100);
  }
  await sleep(5000); // start-up settles: the first run's garbage, the pools' idle timeout
  const samples: Array<{ t: number; cpu: number; rss: number }> = [];
  const t0 = performance.now();
  for (let t = 0; t <= idleSeconds; t += 10) {
    samples.push({ t, ...sample() });
    if (t < idleSeconds) await sleep(Math.min(10, idleSeconds - t) * 1000);
  }
  const idleMs = performance.now() - t0;
  const runsWhileIdle = lines.filter((l) => l.line.reason !== "start").length;
  const watches = inotifyWatches();

  const latencies: number[] = [];
  const file = join(repo, "ctxsmith_watch_bench.py");
  for (let i = 0; i < edits; i++) {
    const before = lines.length;
    const wrote = performance.now();
    writeFileSync(file, `def watch_bench_${i}():\n    return ${i}\n`);
    while (lines.length === before) await sleep(10);
    latencies.push(lines[before]!.at - wrote);
    await sleep(1000);
  }
  const first = samples[0]!;
  const last = samples.at(-1)!;
  const cpuPerMinute = ((last.cpu - first.cpu) / (idleMs / 1000)) * 60;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const mb = (b: number) => (b / 1048576).toFixed(1);
  const report = [
    `## watch: ${basename(repo)} (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version})`,
    "",
    "| measure | value |",
    "|---|---|",
    `| idle window | ${Math.round(idleMs / 1000)} s, ${samples.length} samples |`,
    `| CPU while idle | ${cpuPerMinute.toFixed(3)} s per minute |`,
    `| RSS at the start of the window / at its end | ${mb(first.rss)} MB / ${mb(last.rss)} MB (drift ${(last.rss - first.rss >= 0 ? "+" : "") + mb(last.rss - first.rss)} MB) |`,
    `| index runs while idle | ${runsWhileIdle} |`,
    `| inotify watches | ${watches} |`,
    `| edit → index run done (median of ${edits}; debounce 300 ms) | ${Math.round(median(latencies))} ms (min ${Math.round(Math.min(...latencies))}, max ${Math.round(Math.max(...latencies))}) |`,
    "",
  ].join("\n");
  process.stdout.write(report);
  const target = opt("out");
  if (target) appendFileSync(target, `${report}\n`);
} finally {
  child.kill("SIGTERM");
  rmSync(join(repo, "ctxsmith_watch_bench.py"), { force: true });
}
