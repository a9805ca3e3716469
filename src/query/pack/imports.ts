import type { Language } from "../../core/types.js";

/** JavaScript and TypeScript: `import …` (not `import(…)`, `import.meta`), `export … from`, `require`. */
const JS_IMPORT = /^\s*(?:import\b(?!\s*[(.])|export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s*(?:as\s+\w+\s+)?from\b|(?:const|let|var)\s+(?:[\w$]+|\{[^}]*\})\s*=\s*require\()/;

/**
 * The start of an import statement, per language (at any indentation). Block forms that open a
 * scope (`namespace X {`, Scala's `package x {`, PHP's closure `use (…)`) are not imports.
 */
const IMPORT_START: Partial<Record<Language, RegExp>> = {
  python: /^\s*(?:import\s|from\s+[\w.]+\s+import\b)/,
  javascript: JS_IMPORT,
  typescript: JS_IMPORT,
  tsx: JS_IMPORT,
  java: /^\s*(?:import|package)\s/,
  kotlin: /^\s*(?:import|package)\s/,
  scala: /^\s*(?:import\s|package\s+[\w.]+\s*$)/,
  go: /^\s*(?:import|package)\b/,
  rust: /^\s*(?:pub(?:\([\w:\s]+\))?\s+)?(?:use\s|extern\s+crate\s|mod\s+\w+\s*;)/,
  c: /^\s*#\s*include\b/,
  cpp: /^\s*(?:#\s*include\b|import\s|using\s+namespace\s)/,
  csharp: /^\s*(?:global\s+)?using\s+(?!var\b)\w[\w.=<>,\s]*;/,
  ruby: /^\s*require(?:_relative)?\b/,
  php: /^(?:use\s+(?!\()|namespace\s+[\w\\]+\s*;|\s*(?:require|include)(?:_once)?\b)/,
  swift: /^\s*(?:@testable\s+)?import\s/,
  bash: /^\s*(?:source|\.)\s+\S/,
};

/** Lines one import statement spans at most (a bracket a comment or string leaves open ends it). */
const MAX_STATEMENT = 200;
/** Other lines between two imports that stay in the import block (`try:`, `# third party`, `#ifdef`). */
const MAX_GAP = 2;

/**
 * Which lines (1-based; index 0 unused) are import statements: the continuation lines of one
 * spread over several (`from x import (` … `)`, Go's `import (` block, `use a::{` … `};`) and up to
 * {@link MAX_GAP} other lines between two imports included. Nothing for languages without imports.
 */
export function importLines(lines: readonly string[], language: Language | null): Uint8Array {
  const marks = new Uint8Array(lines.length + 2);
  const start = language ? IMPORT_START[language] : undefined;
  if (!start) return marks;
  let depth = 0;
  let continued = false;
  let open = 0;
  lines.forEach((line, i) => {
    if ((depth > 0 || continued) && ++open <= MAX_STATEMENT) marks[i + 1] = 1;
    else if (start.test(line)) {
      marks[i + 1] = 1;
      open = 0;
      depth = 0;
    } else {
      depth = 0;
      continued = false;
      return;
    }
    const code = codeOf(line);
    depth = Math.max(0, depth + count(code, "({") - count(code, ")}"));
    continued = depth === 0 && /\\\s*$/.test(code);
  });
  bridgeGaps(lines, marks);
  return marks;
}

/** Marks runs of at most {@link MAX_GAP} non-blank lines (and the blank lines among them) that lie between two imports. */
function bridgeGaps(lines: readonly string[], marks: Uint8Array): void {
  let last = 0; // the last import line
  let other = 0; // non-blank lines since it
  for (let line = 1; line <= lines.length; line++) {
    if (marks[line] === 1) {
      if (last > 0 && other > 0 && other <= MAX_GAP) marks.fill(1, last + 1, line);
      last = line;
      other = 0;
    } else if (lines[line - 1]!.trim() !== "") other++;
  }
}

/** A line without its string literals and trailing comment, where brackets are counted. */
function codeOf(line: string): string {
  return line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, "").replace(/\s(?:#|\/\/).*$/, "");
}

/** Occurrences of any of `chars` in `line`. */
function count(line: string, chars: string): number {
  let n = 0;
  for (let i = 0; i < line.length; i++) if (chars.includes(line[i]!)) n++;
  return n;
}
