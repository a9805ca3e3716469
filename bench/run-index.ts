/**
 * One index run in its own process, for the benchmark: prints the run's stats with the peak RSS
 * of this process (main thread and worker threads; not the `git` child processes).
 * Usage: node dist/bench/run-index.js ROOT [--jobs N] [--no-git]
 */
import { Engine } from "../src/engine.js";

const [root, ...rest] = process.argv.slice(2);
if (!root) {
  process.stderr.write("usage: run-index ROOT [--jobs N] [--no-git]\n");
  process.exit(2);
}
const jobsAt = rest.indexOf("--jobs");
const jobs = jobsAt >= 0 ? Number(rest[jobsAt + 1]) : undefined;
const engine = new Engine(root, { jobs, git: !rest.includes("--no-git") });
const stats = await engine.index();
await engine.close();
process.stdout.write(`${JSON.stringify({ stats, maxRssKB: process.resourceUsage().maxRSS })}\n`);
