import type { InstanceRecord, StrategyOutcome } from "./types.js";
import { RECALL_KS } from "./score.js";

/** Mean of booleans as a percentage with one decimal. */
function pct(values: boolean[]): string {
  return values.length === 0 ? "–" : ((100 * values.filter(Boolean).length) / values.length).toFixed(1);
}

/** The median of `values` (0 for none). */
export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const short = (budget: string): string => (Number(budget) % 1000 === 0 ? `${Number(budget) / 1000}k` : budget);

/** One table row of metrics over `outcomes`. */
function row(label: string, outcomes: StrategyOutcome[], budgets: string[]): string {
  const cells = [
    label,
    String(outcomes.length),
    ...RECALL_KS.map((k) => pct(outcomes.map((o) => o.recall[String(k) as "1"]))),
    ...budgets.map((b) => pct(outcomes.map((o) => o.budgets[b]?.file ?? false))),
    ...budgets.map((b) => pct(outcomes.map((o) => o.budgets[b]?.lines ?? false))),
    String(Math.round(median(outcomes.map((o) => o.ms)))),
    String(outcomes.reduce((n, o) => n + Object.values(o.budgets).filter((b) => b.overBudget).length, 0)),
  ];
  return `| ${cells.join(" | ")} |`;
}

/** Strategies whose rows mean something only when the semantic signal had vectors. */
const SEMANTIC_STRATEGIES = ["no-semantic", "embeddings-only"];

/** Which model the semantic signal used, in how many instances; `off` when none had vectors. */
function semanticLine(records: readonly InstanceRecord[]): { text: string; off: boolean } {
  const models = new Map<string, number>();
  for (const r of records) if (r.semantic?.model) models.set(r.semantic.model, (models.get(r.semantic.model) ?? 0) + 1);
  // Records written before the field existed say nothing: only an explicit "no model" leaves the rows out.
  if (models.size === 0 && records.some((r) => r.semantic && r.semantic.model === null)) {
    const why = records.find((r) => r.semantic?.notice)?.semantic?.notice;
    return { off: true, text: `Semantic signal: off in every instance${why ? ` (${why})` : ""}; the ${SEMANTIC_STRATEGIES.join(" and ")} rows are left out. Its weight is unmeasured until a run with a real model: bench/results-tune/semantic.md has the command.` };
  }
  if (models.size === 0) return { off: false, text: "Semantic signal: not recorded (records from before it was)." };
  const used = [...models].map(([model, n]) => `${model} in ${n} of ${records.length} instances`).join(", ");
  return { off: false, text: `Semantic signal: ${used}.` };
}

/**
 * The benchmark's `summary.md`: one table of strategies (Recall@k, file and lines in budget,
 * median query ms, answers over budget), then per-repository rows for each strategy named in
 * `perRepo`. Instances with no scored gold file or with an error are counted apart.
 */
export function summarize(records: readonly InstanceRecord[], strategies: readonly string[], budgets: readonly number[], perRepo: readonly string[] = ["default", "bm25-whole-files"]): string {
  const usable = records.filter((r) => !r.error && r.gold.length > 0);
  const semantic = semanticLine(usable);
  // Without vectors in any instance these rows are the default's, or empty: they would read as measurements.
  if (semantic.off) strategies = strategies.filter((s) => !SEMANTIC_STRATEGIES.includes(s));
  const b = budgets.map(String);
  const header = `| strategy | n | R@1 | R@3 | R@5 | R@10 | ${b.map((x) => `file@${short(x)}`).join(" | ")} | ${b.map((x) => `lines@${short(x)}`).join(" | ")} | ms | over |`;
  const rule = `|${" --- |".repeat(8 + 2 * b.length)}`;
  const lines = [
    "# Retrieval benchmark",
    "",
    `${usable.length} instances scored (${records.length - usable.length} left out: ${records.filter((r) => r.error).length} failed, ${records.filter((r) => !r.error && r.gold.length === 0).length} with no non-test gold file present at the base commit). Percentages; ms = median time to rank and pack at ${short(b[0] ?? "")} in a warm process; over = answers over budget.`,
    "",
    semantic.text,
    "",
    header,
    rule,
    ...strategies.map((s) => row(s, usable.flatMap((r) => (r.strategies[s] ? [r.strategies[s]] : [])), b)),
  ];
  const repos = [...new Set(usable.map((r) => r.repo))].sort();
  for (const s of perRepo.filter((p) => strategies.includes(p))) {
    lines.push("", `## Per repository: ${s}`, "", header.replace("strategy", "repository"), rule);
    for (const repo of repos) lines.push(row(repo, usable.filter((r) => r.repo === repo).flatMap((r) => (r.strategies[s] ? [r.strategies[s]] : [])), b));
  }
  const failed = records.filter((r) => r.error);
  if (failed.length > 0) lines.push("", "## Failed instances", "", ...failed.map((r) => `- ${r.instance_id}: ${r.error}`));
  return `${lines.join("\n")}\n`;
}
