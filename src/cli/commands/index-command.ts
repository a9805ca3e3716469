import type { Argv } from "yargs";
import { Engine } from "../../engine.js";
import type { IndexStats } from "../../core/types.js";
import { formatBytes, formatCount, formatMs } from "../../core/format.js";
import { progressRenderer, type ProgressMode } from "../progress.js";
import type { CliIO } from "../io.js";
import { waitTimeoutMs, waitTimeoutOption } from "../query-args.js";

interface IndexArgs {
  path: string;
  jobs?: number;
  git: boolean;
  semantic: boolean;
  json: boolean;
  quiet: boolean;
  wait: boolean;
  "wait-timeout"?: number;
  progress: ProgressMode;
  "max-file-size"?: number;
  "index-dir"?: string;
}

/** `ctxsmith index [PATH]` */
export function indexCommand(io: CliIO) {
  return {
    command: "index [path]",
    describe: "Build or update the index of a repository (incremental: only changed files are re-read)",
    builder: (y: Argv) =>
      y
        .positional("path", { type: "string", default: ".", describe: "Repository root" })
        .option("jobs", { alias: "j", type: "number", describe: "Parse workers (default: available cores)" })
        .option("git", { type: "boolean", default: true, describe: "Read git history (--no-git to skip)" })
        .option("semantic", { type: "boolean", default: true, describe: "Build semantic vectors when a model is configured (--no-semantic to skip)" })
        .option("max-file-size", { type: "number", describe: "Skip files larger than this many bytes (default 1 MiB)" })
        .option("index-dir", { type: "string", describe: "Where the index lives (default PATH/.contextsmith), e.g. a CI cache folder" })
        .option("wait", { type: "boolean", default: true, describe: "Wait for another index run (--no-wait fails at once)" })
        .option("wait-timeout", waitTimeoutOption)
        .option("json", { type: "boolean", default: false, describe: "Print the summary as JSON" })
        .option("quiet", { alias: "q", type: "boolean", default: false, describe: "Print nothing but errors" })
        .option("progress", {
          choices: ["auto", "bar", "json", "none"] as const,
          default: "auto" as ProgressMode,
          describe: "Progress on stderr: a bar on a terminal (auto), JSON lines, or none",
        }),
    handler: async (args: IndexArgs) => {
      const engine = new Engine(io.resolvePath(args.path), {
        jobs: args.jobs,
        git: args.git,
        semantic: args.semantic,
        maxFileBytes: args["max-file-size"],
        indexDir: args["index-dir"] === undefined ? undefined : io.resolvePath(args["index-dir"]),
      });
      const progress = progressRenderer(args.quiet ? "none" : args.progress, io.stderr);
      try {
        const stats = await engine.index({ onProgress: progress.onProgress, wait: args.wait, waitTimeoutMs: waitTimeoutMs(args["wait-timeout"]), signal: io.signal });
        progress.finish();
        if (args.json) io.stdout.write(`${JSON.stringify(stats, null, 2)}\n`);
        else if (!args.quiet) io.stdout.write(formatIndexSummary(stats));
        for (const w of stats.warnings) if (!args.quiet || args.json) io.stderr.write(`warning: ${w}\n`);
      } finally {
        progress.finish();
        await engine.close();
      }
    },
  };
}

/** The text summary of an index run. */
export function formatIndexSummary(stats: IndexStats): string {
  const f = stats.files;
  const skippedTotal = Object.values(f.skipped).reduce((a, b) => a + b, 0);
  const reasons = Object.entries(f.skipped)
    .sort((a, b) => b[1] - a[1])
    .map(([r, n]) => `${r} ${formatCount(n)}`)
    .join(", ");
  const t = stats.totals;
  const order = ["walk", "plan", "parse", "lexical", "graph", "git", "embed"];
  const timings = order
    .filter((k) => stats.timings[k] !== undefined)
    .map((k) => `${k} ${formatMs(stats.timings[k]!)}`)
    .join(" · ");
  const lines = [
    `Indexed ${stats.root} in ${formatMs(stats.timings.total ?? 0)}${stats.rebuilt ? " (rebuilt)" : ""}`,
    `  files     ${formatCount(f.seen)} seen · ${formatCount(f.parsed)} parsed · ${formatCount(f.unchanged)} unchanged` +
      `${f.touched ? ` (${formatCount(f.touched)} touched)` : ""} · ${formatCount(f.removed)} removed · ${formatCount(skippedTotal)} skipped${reasons ? ` (${reasons})` : ""}`,
    `  content   ${formatCount(t.files)} files · ${formatCount(t.symbols)} symbols · ${formatCount(t.calls)} calls · ${formatCount(t.imports)} imports · ${formatBytes(t.bytes)} of source`,
    `  history   ${formatCount(t.commits)} commits${stats.commitsRead ? ` (${formatCount(stats.commitsRead)} read now)` : ""}`,
    `  timings   ${timings}`,
    `  index     ${formatBytes(stats.indexBytes)} on disk`,
    formatSemantic(stats.semantic),
  ];
  return `${lines.join("\n")}\n`;
}

/** The summary's semantic line: what the vectors are, or why there are none and how to get them. */
export function formatSemantic(s: IndexStats["semantic"]): string {
  if (s.on) {
    const work = s.embedded + s.cached > 0 ? ` · ${formatCount(s.embedded)} embedded, ${formatCount(s.cached)} from the cache` : "";
    return `  semantic  ${formatCount(s.vectors)} vectors (${s.model})${work}`;
  }
  if (s.reason === "--no-semantic") return "  semantic  off (--no-semantic)";
  // One line: the reason says what is missing; the README says every way to provide it.
  return `  semantic  off (lexical search only): ${(s.reason ?? "no vectors").replace(/\.$/, "")}. See "Semantic search" in the README to enable it.`;
}
