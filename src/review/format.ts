import { formatCount } from "../core/format.js";
import { describeTarget } from "../notes/format.js";
import type { ReviewReport, ReviewSymbol } from "./types.js";

/** Definitions in the summary's table; the rest are in the folded list. */
const TOP = 10;
/** Callers listed per definition in the folded details. */
const CALLERS_SHOWN = 10;
/** Rows of a folded list at most: the rest is counted, and in `--json`. */
const ROWS = 100;
/** Names in a summary line at most. */
const NAMES = 10;
/** Characters of the whole comment at most: GitHub refuses a comment over 65,536. */
const MAX_CHARS = 60_000;

/**
 * The review as Markdown to post as a pull-request comment: a short summary and the definitions
 * with the widest impact first, every detail folded (`<details>`), the context for the change last.
 * Long lists are cut (the counts say how much is left out); past {@link MAX_CHARS}, the folds are
 * left out from the last (the context first), and the comment says which.
 */
export function formatReview(report: ReviewReport): string {
  const { summary: s, range } = report;
  const out: string[] = [];
  const changed = s.symbols.added + s.symbols.removed + s.symbols.signature + s.symbols.body;
  out.push(`## ContextSmith review`);
  out.push("");
  if (s.files === 0) {
    out.push(`No changes from ${code(range.base.ref)} (${short(range.from)}) to ${head(report)}.`);
    return finish(out, [], report);
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
    out.push("", `**Removed but still named:** ${names(dangling, (x) => `${code(x.qualifiedName)} (${plural(x.references!.total, "line")})`)}`);
  }
  const downstream = report.symbols.filter((x) => x.downstream);
  if (downstream.length > 0) {
    out.push("", `**Named in dependent repositories:** ${names(downstream, (x) => `${code(x.qualifiedName)} (${x.downstream!.map((d) => `${plain(d.repo)}: ${plural(d.total, "line")}`).join(", ")})`)}`);
  }
  const stale = report.notes.filter((n) => n.status !== "current");
  if (stale.length > 0) out.push("", `**Notes to check:** ${names(stale, (n) => `${code(describeTarget(n))} (${n.status})`)}`);
  if (report.symbols.length > 0) out.push("", symbolTable(report.symbols.slice(0, TOP)));

  const folds: Fold[] = [];
  if (report.symbols.length > TOP) folds.push({ summary: `All ${report.symbols.length} changed definitions`, body: symbolTable(report.symbols.slice(0, ROWS)) + more(report.symbols.length) });
  const traced = report.symbols.filter((x) => x.callers.length > 0 || x.api.length > 0);
  if (traced.length > 0) folds.push({ summary: `Callers (${traced.length} definitions)`, body: traced.slice(0, ROWS / 2).map(callersOf).join("\n\n") + more(traced.length, ROWS / 2) });
  if (report.tests.length > 0) {
    const line = (t: ReviewReport["tests"][number]): string => `- ${code(t.path)}: ${t.how === "calls" ? "calls" : "imports the file of"} ${t.reaches.slice(0, 5).map(code).join(", ")}${t.reaches.length > 5 ? ` and ${t.reaches.length - 5} more` : ""}`;
    folds.push({ summary: `Tests that exercise the change (${report.tests.length})`, body: report.tests.slice(0, ROWS).map(line).join("\n") + more(report.tests.length) });
  }
  if (report.notes.length > 0) {
    folds.push({ summary: `Notes on the touched code (${report.notes.length})`, body: report.notes.slice(0, ROWS).map((n) => `- ${code(describeTarget(n))} (${n.status}): ${plain(n.text)}`).join("\n") + more(report.notes.length) });
  }
  if (dangling.length > 0) {
    const lines = (x: ReviewSymbol): string => `${code(x.qualifiedName)}, ${plural(x.references!.total, "line")}:\n${hitList(x.references!.lines)}`;
    folds.push({ summary: "Where removed definitions are still named", body: dangling.slice(0, ROWS / 4).map(lines).join("\n\n") + more(dangling.length, ROWS / 4) });
  }
  if (downstream.length > 0) {
    const lines = (x: ReviewSymbol): string => x.downstream!.map((d) => `${code(x.qualifiedName)} in ${plain(d.repo)}, ${plural(d.total, "line")}:\n${hitList(d.lines)}`).join("\n\n");
    folds.push({ summary: "Where dependent repositories name changed declarations", body: downstream.slice(0, ROWS / 4).map(lines).join("\n\n") + more(downstream.length, ROWS / 4) });
  }
  folds.push({ summary: `Files (${report.files.length})`, body: fileTable(report) });
  if (report.context) {
    const c = report.context;
    folds.push({ summary: `What to read for this change: ${plural(c.files.length, "file")}, ${formatCount(c.tokens)} tokens of ${formatCount(c.budget)}`, body: safeContext(c.text) });
  }
  return finish(out, folds, report);
}

/** A folded section. */
interface Fold {
  summary: string;
  body: string;
}

/** The first {@link NAMES} items, then how many more. */
function names<T>(items: readonly T[], show: (item: T) => string): string {
  return items.slice(0, NAMES).map(show).join(", ") + (items.length > NAMES ? ` and ${items.length - NAMES} more` : "");
}

/** What a list cut at `shown` leaves out. */
function more(total: number, shown = ROWS): string {
  return total > shown ? `\n\n…and ${total - shown} more (see \`--json\`).` : "";
}

const KIND_WORDS = { signature: "signature changed", removed: "removed", added: "added", body: "body changed" } as const;

function symbolTable(symbols: readonly ReviewSymbol[]): string {
  const rows = symbols.map((x) => {
    const impact = x.change === "removed" ? (x.references ? `still named in ${plural(x.references.total, "line")}` : "–") : impactCell(x);
    return row([KIND_WORDS[x.change], code(x.qualifiedName), code(`${x.path}:${x.startLine}`), String(x.callers.length), impact]);
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
  const rows = report.files.slice(0, 2 * ROWS).map((f) => {
    const where = f.previousPath ? `${code(f.previousPath)} → ${code(f.path)}` : code(f.path);
    const lines = f.additions === null ? "–" : `+${f.additions} −${f.deletions}`;
    const what = f.skipped ? plain(f.skipped) : [plural(f.symbols, "definition"), ...(f.outside ? ["code outside definitions"] : [])].join(", ");
    return row([where, `${f.status}${f.test ? " (test)" : ""}`, lines, what]);
  });
  return ["| File | Status | Lines | Changed |", "|---|---|---|---|", ...rows].join("\n") + more(report.files.length, 2 * ROWS);
}

/** The summary, then the folds that fit in {@link MAX_CHARS} (those left out named), then the notices. */
function finish(out: string[], folds: readonly Fold[], report: ReviewReport): string {
  const notices = (report.notices ?? []).slice(0, NAMES).map((n) => `\n\n> note: ${plain(n)}`).join("");
  // Blank lines around a body: GitHub renders Markdown inside <details> only then.
  const rendered = folds.map((f) => `\n\n<details><summary>${escapeHtml(f.summary)}</summary>\n\n${f.body}\n\n</details>`);
  let text = out.join("\n");
  let kept = rendered.length;
  const size = (): number => text.length + rendered.slice(0, kept).reduce((n, r) => n + r.length, 0) + notices.length + 200;
  while (kept > 0 && size() > MAX_CHARS) kept--;
  text += rendered.slice(0, kept).join("");
  if (kept < folds.length) text += `\n\n_Left out to stay under a comment's size: ${folds.slice(kept).map((f) => plain(f.summary)).join("; ")} (see \`--json\`)._`;
  return `${text}${notices}\n`;
}

function head(report: ReviewReport): string {
  return report.range.head.ref === null ? `the work tree (on ${short(report.range.head.commit)})` : `${code(report.range.head.ref)} (${short(report.range.head.commit)})`;
}

/** Inline code that survives any text: a fence longer than its longest backtick run (no line breaks). */
function code(text: string): string {
  const runs = text.match(/`+/g) ?? [];
  const fence = "`".repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const padded = text.startsWith("`") || text.endsWith("`") ? ` ${text} ` : text;
  return `${fence}${padded.replace(/[\r\n]+/g, " ")}${fence}`;
}

/** A table row: a cell's `|` (in code too) would end the cell. */
function row(cells: readonly string[]): string {
  return `| ${cells.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`;
}

/** Text from files and notes, shown as text: no HTML, links or emphasis of its author's. */
function plain(text: string): string {
  return escapeHtml(text.replace(/\s+/g, " ").trim()).replace(/[\\`*_[\]]/g, "\\$&");
}

/** The packed context with its headers and notes as text: outside the fenced code, no HTML or link of a file's name or a note's. */
function safeContext(text: string): string {
  let fenced = false;
  return text
    .split("\n")
    .map((line) => {
      if (line.startsWith("```")) {
        fenced = !fenced;
        return line;
      }
      return fenced ? line : escapeHtml(line).replace(/[[\]]/g, "\\$&");
    })
    .join("\n");
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function short(commit: string): string {
  return commit.slice(0, 10);
}

function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`;
}
