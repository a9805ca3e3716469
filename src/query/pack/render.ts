import type { Language } from "../../core/types.js";
import type { Span, SpanKind } from "../types.js";
import type { PackFile } from "./types.js";

/** Who put a line on show: the span kind and symbol it is reported under. */
export interface LineOwner {
  kind: SpanKind;
  symbol: string | null;
}

/** The lines shown of one file. */
export interface ShownFile {
  file: PackFile;
  lines: Map<number, LineOwner>;
}

/** Markdown fence languages. */
const FENCE: Readonly<Record<Language, string>> = {
  python: "python", javascript: "javascript", typescript: "typescript", tsx: "tsx", java: "java", go: "go", rust: "rust", c: "c", cpp: "cpp", csharp: "csharp", ruby: "ruby", bash: "bash", php: "php", kotlin: "kotlin", scala: "scala", swift: "swift",
  markdown: "markdown", html: "html", css: "css", sql: "sql", yaml: "yaml", json: "json", toml: "toml",
};

/** One rendered code line: the number an agent can cite, a bar, the code. */
export function renderLine(file: PackFile, line: number): string {
  return `${line}|${file.lines[line - 1] ?? ""}\n`;
}

/** The header of a file's section. */
export function renderHeader(file: PackFile, runs: readonly Span[], spans: readonly Span[] = runs): string {
  const ranges = runs.map((s) => (s.start === s.end ? `${s.start}` : `${s.start}-${s.end}`)).join(", ");
  const fence = "```" + (file.language ? (FENCE[file.language] ?? "") : fenceFromPath(file.path));
  if (file.repo === undefined) return `### ${file.path} · lines ${ranges} · ${file.why}\n${fence}\n`;
  // Across repositories, each piece also names its repository and the scopes it shows.
  const scopes = [...new Set(spans.map((s) => s.symbol).filter((s): s is string => s !== null))];
  const scope = scopes.length > 0 ? ` · in ${scopes.slice(0, 4).join(", ")}${scopes.length > 4 ? ", …" : ""}` : "";
  return `### ${file.repo}: ${file.path} · lines ${ranges}${scope} · ${file.why}\n${fence}\n`;
}

const FOOTER = "```\n";
/** Between two runs of lines that are not adjacent. */
const GAP = "⋮\n";

/**
 * Renders the shown lines, file by file in the given order: a header (path, line ranges, why),
 * then the lines in a fenced block with their numbers, a `⋮` line between runs that are not
 * adjacent. Returns the text and the spans — exactly the lines in the text, split where the
 * owner changes.
 */
export function render(files: readonly ShownFile[]): { text: string; spans: Span[] } {
  const parts: string[] = [];
  const spans: Span[] = [];
  for (const { file, lines } of files) {
    if (lines.size === 0) continue;
    const fileSpans = toSpans(file, lines);
    if (parts.length > 0) parts.push("\n");
    parts.push(renderHeader(file, mergeRuns(fileSpans), fileSpans));
    let previous = 0;
    for (const span of fileSpans) {
      if (previous > 0 && span.start > previous + 1) parts.push(GAP);
      for (let line = span.start; line <= span.end; line++) parts.push(renderLine(file, line));
      previous = span.end;
    }
    parts.push(FOOTER);
    spans.push(...fileSpans);
  }
  return { text: parts.join(""), spans };
}

/** Runs of consecutive lines with the same owner. */
function toSpans(file: PackFile, lines: Map<number, LineOwner>): Span[] {
  const { path } = file;
  const repo = file.repo === undefined ? {} : { repo: file.repo };
  const spans: Span[] = [];
  for (const line of [...lines.keys()].sort((a, b) => a - b)) {
    const owner = lines.get(line)!;
    const last = spans[spans.length - 1];
    if (last && last.end + 1 === line && last.kind === owner.kind && last.symbol === owner.symbol) last.end = line;
    else spans.push({ path, start: line, end: line, kind: owner.kind, symbol: owner.symbol, ...repo });
  }
  return spans;
}

/** Adjacent spans merged into runs, for the header's line ranges. */
function mergeRuns(spans: readonly Span[]): Span[] {
  const runs: Span[] = [];
  for (const span of spans) {
    const last = runs[runs.length - 1];
    if (last && last.end + 1 === span.start) last.end = span.end;
    else runs.push({ ...span });
  }
  return runs;
}

function fenceFromPath(path: string): string {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  return /^[a-z0-9]{1,8}$/.test(ext) && ext !== path.toLowerCase() ? ext : "";
}
