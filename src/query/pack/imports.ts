import type { Language } from "../../core/types.js";

/** The start of an import statement, per language (as written at module level, any indentation). */
const IMPORT_START: Partial<Record<Language, RegExp>> = {
  python: /^\s*(?:import\s|from\s+[\w.]+\s+import\b)/,
  javascript: /^\s*(?:import\b(?!\s*\()|export\s+(?:\*|\{[^}]*\}?)\s*(?:as\s+\w+\s+)?from\b|(?:const|let|var)\s+[\w{}\s,:]+=\s*require\()/,
  java: /^\s*(?:import|package)\s/,
  kotlin: /^\s*(?:import|package)\s/,
  scala: /^\s*(?:import|package)\s/,
  go: /^\s*(?:import|package)\b/,
  rust: /^\s*(?:pub(?:\([\w:\s]+\))?\s+)?(?:use\s|extern\s+crate\s|mod\s+\w+\s*;)/,
  c: /^\s*#\s*include\b/,
  cpp: /^\s*(?:#\s*include\b|import\s|using\s+namespace\s)/,
  csharp: /^\s*(?:global\s+)?using\s+[\w.=\s]+;/,
  ruby: /^\s*require(?:_relative)?\b/,
  php: /^\s*(?:use\s|namespace\s|(?:require|include)(?:_once)?\b)/,
  swift: /^\s*(?:@testable\s+)?import\s/,
  bash: /^\s*(?:source|\.)\s+\S/,
};
IMPORT_START.typescript = IMPORT_START.javascript;
IMPORT_START.tsx = IMPORT_START.javascript;

/**
 * Which lines (1-based; index 0 unused) are import statements, the continuation lines of one
 * spread over several (`from x import (` … `)`, Go's `import (` block, `use a::{` … `};`)
 * included. Nothing for languages without imports.
 */
export function importLines(lines: readonly string[], language: Language | null): Uint8Array {
  const marks = new Uint8Array(lines.length + 2);
  const start = language ? IMPORT_START[language] : undefined;
  if (!start) return marks;
  let depth = 0;
  let continued = false;
  let open = 0;
  lines.forEach((line, i) => {
    // A bracket left open by a comment or a string ends the statement after MAX_STATEMENT lines.
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
    depth = Math.max(0, depth + count(line, "({") - count(line, ")}"));
    continued = depth === 0 && /\\\s*$/.test(line);
  });
  return marks;
}

/** Lines one import statement spans at most. */
const MAX_STATEMENT = 200;

/** Occurrences of any of `chars` in `line`. */
function count(line: string, chars: string): number {
  let n = 0;
  for (let i = 0; i < line.length; i++) if (chars.includes(line[i]!)) n++;
  return n;
}
