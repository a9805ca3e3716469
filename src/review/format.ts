import { describeTarget } from "../notes/format.js";
import type { ReviewReport, ReviewSymbol } from "./types.js";

/** Definitions in the summary's table; the rest are in the folded list. */
const TOP = 10;
/** Callers listed per definition in the folded details. */
const CALLERS_SHOWN = 10;

/**
 * The review as Markdown to post as a pull-request comment: a short summary and the definitions
 * with the widest impact first, every detail folded (`<details>`), the context for the change last.
 */
export function formatReview(report: ReviewReport): string {
  const { summary: s, range } = report;
  const out: string[] = [];
  const changed = s.symbols.added + s.symbols.removed + s.symbols.signature + s.symbols.body;
  out.push(`## ContextSmith review`);
  out.push("");
  if (s.files === 0) {
    out.push(`No changes from ${code(range.base.ref)} (${short(range.from)}) to ${head(report)}.`);
    return finish(out, report);
  }
  const kinds = (["signature", "removed", "added", "body"] as const).filter((k) => s.symbols[k] > 0).map((k) => `${s.symbols[k]} ${KIND_WORDS[k]}`);
  const parts = [
    `**${plural(s.files, "file")}** (+${s.additions} −${s.deletions})`,
    changed > 0 ? `**${plural(changed, "definition")}** changed (${kinds.join(", ")})` : "no definitions changed",
    s.impactedFiles + s.impactedTests > 0 ? `called from **${plural(s.impactedFiles, "other file")}** and **${plural(s.impactedTests, "other test file")}**` : "no callers elsewhere",
    `${plural(s.tests, "test file")} exercise${s.tests === 1 ? "s" : ""} it`,
    ...(s.notes > 0 ? [plural(s.notes, "note")] : []),
  ];
  out.push(parts.join(" · "));
  out.push("");
  out.push(`${code(range.base.ref)} (${range.from === range.base.commit ? "" : "merge base "}${short(range.from)}) → ${head(report)}`);
  const dangling = report.symbols.filter((x) => x.references);
  if (dangling.length > 0) {
    out.push("");
    out.push(`**Removed but still named:** ${dangling.map((x) => `${code(x.qualifiedName)} (${plural(x.references!.total, "line")})`).join(", ")}`);
  }
  const downstream = report.symbols.filter((x) => x.downstream);
  if (downstream.length > 0) {
    out.push("");
    out.push(`**Named in dependent repositories:** ${downstream.map((x) => `${code(x.qualifiedName)} (${x.downstream!.map((d) => `${d.repo}: ${plural(d.total, "line")}`).join(", ")})`).join(", ")}`);
  }
  const stale = report.notes.filter((n) => n.status !== "current");
  if (stale.length > 0) {
    out.push("");
    out.push(`**Notes to check:** ${stale.map((n) => `${describeTarget(n)} (${n.status})`).join(", ")}`);
  }
  if (report.symbols.length > 0) {
    out.push("");
    out.push(symbolTable(report.symbols.slice(0, TOP)));
  }
  if (report.symbols.length > TOP) folded(out, `All ${report.symbols.length} changed definitions`, symbolTable(report.symbols));
  const traced = report.symbols.filter((x) => x.callers.length > 0 || x.api.length > 0);
  if (traced.length > 0) folded(out, `Callers (${traced.length} definitions)`, traced.map(callersOf).join("\n\n"));
  if (report.tests.length > 0) {
    folded(out, `Tests that exercise the change (${report.tests.length})`, report.tests.map((t) => `- ${code(t.path)}: ${t.how === "calls" ? "calls" : "imports the file of"} ${t.reaches.slice(0, 5).map(code).join(", ")}${t.reaches.length > 5 ? ` and ${t.reaches.length - 5} more` : ""}`).join("\n"));
  }
  if (report.notes.length > 0) {
    folded(out, `Notes on the touched code (${report.notes.length})`, report.notes.map((n) => `- **${describeTarget(n)}** (${n.status}): ${oneLine(n.text)}`).join("\n"));
  }
  if (dangling.length > 0) {
    folded(
      out,
      "Where removed definitions are still named",
      dangling.map((x) => `${code(x.qualifiedName)}, ${plural(x.references!.total, "line")}:\n${hitList(x.references!.lines)}`).join("\n\n"),
    );
  }
  if (downstream.length > 0) {
    const lines = (x: ReviewSymbol): string =>
      x.downstream!.map((d) => `${code(x.qualifiedName)} in ${d.repo}, ${plural(d.total, "line")}:\n${hitList(d.lines)}`).join("\n\n");
    folded(out, "Where dependent repositories name changed declarations", downstream.map(lines).join("\n\n"));
  }
  folded(out, `Files (${report.files.length})`, fileTable(report));
  if (report.context) {
    folded(out, `What to read for this change: ${plural(report.context.files.length, "file")}, ${report.context.tokens.toLocaleString("en-US")} tokens of ${report.context.budget.toLocaleString("en-US")}`, report.context.text);
  }
  return finish(out, report);
}

const KIND_WORDS = { signature: "signature changed", removed: "removed", added: "added", body: "body changed" } as const;

function symbolTable(symbols: readonly ReviewSymbol[]): string {
  const rows = symbols.map((x) => {
    const impact = x.change === "removed" ? (x.references ? `still named in ${plural(x.references.total, "line")}` : "–") : impactCell(x);
    return `| ${KIND_WORDS[x.change]} | ${code(x.qualifiedName)} | ${code(`${x.path}:${x.startLine}`)} | ${x.callers.length} | ${impact} |`;
  });
  return ["| Change | Definition | Where | Callers | Impact |", "|---|---|---|---|---|", ...rows].join("\n");
}

function impactCell(x: ReviewSymbol): string {
  if (x.test) return "test";
  const parts = [plural(x.impact.production.length, "file"), plural(x.impact.tests.length, "test file")];
  if (x.api.length > 0) parts.push(plural(x.api.length, "HTTP request"));
  return parts.join(", ") + (x.impact.truncated ? " (and deeper)" : "");
}

function callersOf(x: ReviewSymbol): string {
  const lines = [`${code(x.qualifiedName)} (${KIND_WORDS[x.change]})`];
  if (x.previousSignature !== undefined) lines.push(`- was ${code(x.previousSignature)}`, `- now ${code(x.signature)}`);
  for (const c of x.callers.slice(0, CALLERS_SHOWN)) lines.push(`- ${c.symbol ? code(c.symbol) : "module code"} in ${code(`${c.path}:${c.line}`)}${c.test ? " (test)" : ""}`);
  if (x.callers.length > CALLERS_SHOWN) lines.push(`- and ${x.callers.length - CALLERS_SHOWN} more`);
  for (const a of x.api) lines.push(`- HTTP ${a.method} ${code(a.path)} from ${code(`${a.repo}/${a.file}:${a.line}`)}${a.symbol ? ` in ${code(a.symbol)}` : ""}`);
  return lines.join("\n");
}

function hitList(lines: ReadonlyArray<{ path: string; line: number; text: string }>): string {
  return lines.map((l) => `- ${code(`${l.path}:${l.line}`)} ${code(l.text)}`).join("\n");
}

function fileTable(report: ReviewReport): string {
  const rows = report.files.map((f) => {
    const where = f.previousPath ? `${code(f.previousPath)} → ${code(f.path)}` : code(f.path);
    const lines = f.additions === null ? "binary" : `+${f.additions} −${f.deletions}`;
    const what = f.skipped ? f.skipped : [plural(f.symbols, "definition"), ...(f.outside ? ["code outside definitions"] : [])].join(", ");
    return `| ${where} | ${f.status}${f.test ? " (test)" : ""} | ${lines} | ${what} |`;
  });
  return ["| File | Status | Lines | Changed |", "|---|---|---|---|", ...rows].join("\n");
}

function folded(out: string[], summary: string, body: string): void {
  // Blank lines around the body: GitHub renders Markdown inside <details> only then.
  out.push("", `<details><summary>${escapeHtml(summary)}</summary>`, "", body, "", "</details>");
}

function finish(out: string[], report: ReviewReport): string {
  for (const n of report.notices ?? []) out.push("", `> note: ${oneLine(n)}`);
  return `${out.join("\n")}\n`;
}

function head(report: ReviewReport): string {
  return report.range.head.ref === null ? `the work tree (on ${short(report.range.head.commit)})` : `${code(report.range.head.ref)} (${short(report.range.head.commit)})`;
}

/** Inline code that survives any text: a fence longer than its longest backtick run, pipes escaped for tables. */
function code(text: string): string {
  const runs = text.match(/`+/g) ?? [];
  const fence = "`".repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const padded = text.startsWith("`") || text.endsWith("`") ? ` ${text} ` : text;
  return `${fence}${padded.replace(/\|/g, "\\|").replace(/[\r\n]+/g, " ")}${fence}`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function short(commit: string): string {
  return commit.slice(0, 10);
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
}
