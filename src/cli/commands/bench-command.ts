import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Argv } from "yargs";
import { loadDataset } from "../../bench/dataset.js";
import { runBench } from "../../bench/runner.js";
import { pickStrategies } from "../../bench/strategies.js";
import { summarize } from "../../bench/summary.js";
import { ContextSmithError } from "../../core/errors.js";
import { resolveRanking, type RankingOverrides } from "../../query/ranking-config.js";
import { formatMs } from "../../core/format.js";
import type { CliIO } from "../io.js";

interface BenchArgs {
  dataset: string;
  repos?: string;
  mirrors?: string;
  network: boolean;
  budgets: string;
  strategies?: string;
  jobs: number;
  "parse-jobs"?: number;
  out: string;
  cache: string;
  resume: boolean;
  ranking?: string;
  json: boolean;
}

function parseOverrides(json: string | undefined): RankingOverrides {
  if (json === undefined) return {};
  try {
    const value = JSON.parse(json) as unknown;
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error("not an object");
    return value as RankingOverrides;
  } catch (error) {
    throw new ContextSmithError("INVALID_ARGUMENT", `--ranking must be a JSON object of ranking overrides: ${(error as Error).message}`);
  }
}

const list = (value: string | undefined): string[] => (value ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "");

/** `ctxsmith bench --dataset FILE.jsonl` */
export function benchCommand(io: CliIO) {
  return {
    command: "bench",
    describe: "Retrieval benchmark on a SWE-bench-style dataset: Recall@k, file and lines in budget, per strategy",
    builder: (y: Argv) =>
      y
        .option("dataset", { type: "string", demandOption: true, describe: "JSONL with instance_id, repo, base_commit, problem_statement, patch" })
        .option("repos", { type: "string", describe: "Only these repositories (owner/name, comma-separated)" })
        .option("mirrors", { type: "string", describe: "Folder of bare repositories named owner+name/repo or owner+name" })
        .option("network", { type: "boolean", default: true, describe: "Clone from GitHub what no mirror has (--no-network to never)" })
        .option("budgets", { type: "string", default: "4000,8000", describe: "Token budgets to pack (comma-separated)" })
        .option("strategies", { type: "string", describe: "Strategies to score (comma-separated; default: all)" })
        .option("jobs", { alias: "j", type: "number", default: 1, describe: "Repositories benchmarked at once" })
        .option("parse-jobs", { type: "number", describe: "Parse threads per index run (default: available cores)" })
        .option("out", { type: "string", default: "bench/out", describe: "Output folder: instances.jsonl, signals/, summary.md" })
        .option("cache", { type: "string", default: "bench/.cache", describe: "Work clones and indexes, kept between runs" })
        .option("resume", { type: "boolean", default: false, describe: "Keep the instances already in OUT/instances.jsonl" })
        .option("ranking", { type: "string", describe: "Ranking overrides for every strategy, as JSON (e.g. '{\"pack\":{\"rankDecay\":2}}')" })
        .option("json", { type: "boolean", default: false, describe: "Print the summary's location and the records as JSON" }),
    handler: async (args: BenchArgs) => {
      const budgets = list(args.budgets).map(Number);
      if (budgets.length === 0 || budgets.some((b) => !Number.isInteger(b) || b < 1)) throw new ContextSmithError("INVALID_ARGUMENT", `--budgets must be positive whole numbers, not "${args.budgets}".`);
      const picked = pickStrategies(list(args.strategies));
      if (typeof picked === "string") throw new ContextSmithError("INVALID_ARGUMENT", picked);
      const overrides = parseOverrides(args.ranking);
      const strategies = picked.map((s) => ({ ...s, config: resolveRanking(overrides, s.config) }));
      const instances = loadDataset(io.resolvePath(args.dataset), list(args.repos));
      if (instances.length === 0) throw new ContextSmithError("INVALID_ARGUMENT", `No instance of ${args.repos ?? "any repository"} in ${args.dataset}.`);
      const outDir = io.resolvePath(args.out);
      const records = await runBench({
        instances,
        strategies,
        budgets,
        source: { mirrors: args.mirrors === undefined ? undefined : io.resolvePath(args.mirrors), network: args.network },
        cacheDir: io.resolvePath(args.cache),
        outDir,
        jobs: args.jobs,
        parseJobs: args["parse-jobs"],
        resume: args.resume,
        signal: io.signal,
        onProgress: (e) => {
          if (e.stage === "start") io.stderr.write(`${e.total} instances${e.skipped ? ` (${e.skipped} done before, kept)` : ""}\n`);
          else {
            const verdict = e.error ? `failed: ${e.error}` : e.recall5 === null ? "no gold file to score" : `R@5 ${e.recall5 ? "hit" : "miss"}`;
            io.stderr.write(`[${e.done}/${e.total}] ${e.id}  ${verdict}  ${formatMs(e.ms)}\n`);
          }
        },
      });
      const wanted = new Set(instances.map((i) => i.instance_id));
      const summary = summarize(records.filter((r) => wanted.has(r.instance_id)), strategies.map((s) => s.name), budgets);
      const summaryFile = join(outDir, "summary.md");
      writeFileSync(summaryFile, summary);
      if (args.json) io.stdout.write(`${JSON.stringify({ summary: summaryFile, instances: join(outDir, "instances.jsonl") })}\n`);
      else io.stdout.write(`${summary}\nWritten to ${summaryFile}\n`);
    },
  };
}
