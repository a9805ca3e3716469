import type { Language } from "../../core/types.js";

/** Languages whose comments start with `#`. */
const HASH_COMMENTS = new Set<Language>(["python", "ruby", "bash", "yaml", "toml"]);
/** Languages whose comments start with `//` or are `/* … *\/` blocks. */
const SLASH_COMMENTS = new Set<Language>(["javascript", "typescript", "tsx", "java", "go", "rust", "c", "cpp", "csharp", "php", "kotlin", "scala", "swift", "css"]);
/** A Python string that starts a line with its triple quote, prefixes allowed (`r"""`, `b'''`). */
const TRIPLE_QUOTE = /^[rRuUbBfF]{0,2}("""|''')/;

/**
 * Which lines of a file are prose rather than code: comment lines and, in Python, the lines of a
 * triple-quoted string that starts a line (docstrings). Indexed by 1-based line; a line is prose
 * only when it starts as a comment or lies inside a block comment or docstring. A language without
 * comment rules here has none.
 */
export function proseLines(lines: readonly string[], language: Language | null): Uint8Array {
  const out = new Uint8Array(lines.length + 2);
  const hash = language !== null && HASH_COMMENTS.has(language);
  const slash = language !== null && SLASH_COMMENTS.has(language);
  if (!hash && !slash) return out;
  // The delimiter that closes the docstring or block comment open on the line before, if any.
  let open: string | null = null;
  lines.forEach((raw, i) => {
    const line = raw.trimStart();
    if (open !== null) {
      out[i + 1] = 1;
      if (line.includes(open)) open = null;
      return;
    }
    const quote = language === "python" ? TRIPLE_QUOTE.exec(line)?.[1] : undefined;
    if (quote !== undefined) {
      out[i + 1] = 1;
      if (!line.slice(line.indexOf(quote) + 3).includes(quote)) open = quote;
    } else if (hash ? line.startsWith("#") : line.startsWith("//")) {
      out[i + 1] = 1;
    } else if (slash && line.startsWith("/*")) {
      out[i + 1] = 1;
      if (!line.includes("*/", 2)) open = "*/";
    }
  });
  return out;
}
