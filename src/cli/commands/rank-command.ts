import type { Argv } from "yargs";
import type { RankedFile } from "../../query/types.js";
import { expansionLabel } from "../../workspace/relations.js";
import type { WorkspaceRankedFile } from "../../workspace/types.js";
import type { CliIO } from "../io.js";
import { positiveWholeOption, printNotices, queryOptions, readTask, taskOptions, withQueryEngine, type QueryArgs } from "../query-args.js";
import { scopeOf, scopeOptions, withWorkspace, type ScopeArgs } from "../workspace-args.js";

interface RankArgs extends QueryArgs, ScopeArgs {
  task?: string;
  "task-file"?: string;
  limit: number;
}

/** `ctxsmith rank "task"` */
export function rankCommand(io: CliIO) {
  return {
    command: "rank [task]",
    describe: "Rank the files for a task, with the signals that found each one",
    builder: (y: Argv) => scopeOptions(queryOptions(taskOptions(y))).option("limit", positiveWholeOption("limit", "Files to show", 20, "k")),
    handler: async (args: RankArgs) => {
      const task = await readTask(args, io);
      const scope = scopeOf(args);
      if (scope) {
        const result = await withWorkspace(args, io, (ws, options) => ws.rank(task, scope, { ...options, limit: args.limit }));
        printNotices(result.notices, io);
        const provenance = (f: WorkspaceRankedFile) => ({ repo: f.repo, relation: f.relation, ...(f.direction ? { direction: f.direction } : {}), hops: f.hops, repoRank: f.repoRank });
        if (args.json) io.stdout.write(`${JSON.stringify({ files: result.files.map((f) => ({ ...toJson(f), ...provenance(f) })), scope: result.scope, notices: result.notices ?? [] })}\n`);
        else io.stdout.write(formatRanking(result.files.map((f) => ({ ...f, path: `${f.repo}: ${f.path}${expansionLabel(f) ? ` (${expansionLabel(f)})` : ""}` }))));
        return;
      }
      const { files, notices, semanticShare } = await withQueryEngine(args, io, (engine, options) => engine.rank(task, { ...options, limit: args.limit }));
      printNotices(notices, io);
      if (args.json) io.stdout.write(`${JSON.stringify({ files: files.map(toJson), notices: notices ?? [], ...(semanticShare === undefined ? {} : { semanticShare }) })}\n`);
      else io.stdout.write(formatRanking(files));
    },
  };
}

/** The `--json` shape of a ranked file: `{ path, score, signals: { name: { rank, score } }, releaseNotes? }`. */
function toJson(file: RankedFile) {
  return {
    path: file.path,
    score: Math.round(file.score * 1e6) / 1e6,
    signals: Object.fromEntries(Object.entries(file.signals).map(([name, s]) => [name, { rank: s.rank, score: s.score, evidence: s.evidence }])),
    ...(file.releaseNotes === undefined ? {} : { releaseNotes: file.releaseNotes }),
  };
}

/** One line per file: rank, score, path, then why the release notes are there and each signal's rank and evidence. */
export function formatRanking(files: readonly RankedFile[]): string {
  if (files.length === 0) return "No file matched the task.\n";
  const width = String(files.length).length;
  return files
    .map((f, i) => {
      const signals = [
        ...(f.releaseNotes === undefined ? [] : [f.releaseNotes]),
        ...Object.entries(f.signals)
          .sort((a, b) => a[1].rank - b[1].rank)
          .map(([name, s]) => `${name} #${s.rank}${s.evidence ? ` (${s.evidence})` : ""}`),
      ].join("\n" + " ".repeat(width + 12));
      return `${String(i + 1).padStart(width)}. ${f.score.toFixed(4)}  ${f.path}\n${" ".repeat(width + 12)}${signals}\n`;
    })
    .join("");
}
