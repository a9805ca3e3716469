import type { Language } from "../../core/types.js";

/** Languages whose comments start with `#`. */
const HASH_COMMENTS = new Set<Language>(["python", "ruby", "bash", "yaml", "toml"]);
/** Languages whose comments start with `//` or are `/* … *\/` blocks. */
const SLASH_COMMENTS = new Set<Language>(["javascript", "typescript", "tsx", "java", "go", "rust", "c", "cpp", "csharp", "php", "kotlin", "scala", "swift", "css"]);
/** A Python string that starts a line with its triple quote (`r"""` and `u'''` too: f- and b-strings are never docstrings). */
const DOCSTRING = /^[rRuU]?("""|''')/;

/**
 * Which lines of a file are prose rather than code: comment lines and, in Python, the lines of a
 * triple-quoted string that starts a line (docstrings). Indexed by 1-based line. Only what starts
 * a line is read as prose: a comment after code leaves its line code. A Python string opened after
 * code (`SQL = """`) is followed to its end as code, so that its closing quotes are not taken for a
 * docstring's opening ones (which would swap prose and code for the rest of the file). Not
 * recognised: PHP's `#` comments, Ruby's `=begin` blocks, nested Rust block comments, and `/*`
 * that starts a line inside a string (marked prose up to the next `*\/`). A language without
 * comment rules here has no prose lines.
 */
export function proseLines(lines: readonly string[], language: Language | null): Uint8Array {
  const out = new Uint8Array(lines.length + 2);
  const python = language === "python";
  const hash = language !== null && HASH_COMMENTS.has(language);
  const slash = language !== null && SLASH_COMMENTS.has(language);
  if (!hash && !slash) return out;
  // The delimiter that closes the string or block comment open on the line before, if any, and
  // whether what it holds is prose (a docstring, a comment) or code (a string opened after code).
  let open: string | null = null;
  let openProse = false;
  lines.forEach((raw, i) => {
    const line = raw.trimStart();
    if (open !== null) {
      if (openProse) out[i + 1] = 1;
      const at = line.indexOf(open);
      if (at < 0) return;
      // Closed here; the rest of a Python line may open a string of code.
      open = python ? openTriple(line.slice(at + 3)) : null;
      openProse = false;
      return;
    }
    const docstring = python ? DOCSTRING.exec(line) : null;
    if (docstring) {
      out[i + 1] = 1;
      open = openTriple(line.slice(docstring.index + docstring[0].length - 3));
      openProse = open !== null;
    } else if (hash ? line.startsWith("#") : line.startsWith("//")) {
      out[i + 1] = 1;
    } else if (slash && line.startsWith("/*")) {
      out[i + 1] = 1;
      if (!line.includes("*/", 2)) [open, openProse] = ["*/", true];
    } else if (python) {
      open = openTriple(line);
      openProse = false;
    }
  });
  return out;
}

/** The triple quote left open at the end of `text` (a line of Python), or null. */
function openTriple(text: string): string | null {
  let open: string | null = null;
  // indexOf, not a regex: most lines hold no triple quote, and every code line of every packed file is asked.
  for (let at = 0; ; at += 3) {
    if (open === null) {
      const double = text.indexOf('"""', at);
      const single = text.indexOf("'''", at);
      if (double < 0 && single < 0) return null;
      at = double < 0 || (single >= 0 && single < double) ? single : double;
      open = text.slice(at, at + 3);
    } else {
      at = text.indexOf(open, at);
      if (at < 0) return open;
      open = null;
    }
  }
}
