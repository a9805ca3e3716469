import { createHash } from "node:crypto";
import type { SymbolInfo, SymbolKind } from "../core/types.js";

/** Definitions worth a vector: what a task can be about. (impl blocks, modules and macros are not.) */
const EMBEDDED: ReadonlySet<SymbolKind> = new Set<SymbolKind>(["function", "method", "class", "interface", "enum", "struct", "trait", "type"]);

/** One symbol's summary: the text that is embedded, and its content hash (the vector's cache key). */
export interface Summary {
  /** Qualified name of the symbol. */
  name: string;
  text: string;
  hash: string;
}

/**
 * The summaries of a file's functions and classes: qualified name, kind and path, first doc
 * sentence, signature. Far cheaper to embed than code, and a hit names the function a task is about.
 * Identical summaries in one file (overloads written alike) share one entry.
 */
export function symbolSummaries(path: string, symbols: readonly SymbolInfo[]): Summary[] {
  const seen = new Set<string>();
  const out: Summary[] = [];
  for (const s of symbols) {
    if (!EMBEDDED.has(s.kind)) continue;
    // The doc sentence before the signature: a long signature's tail (types, defaults) is what
    // the model's length limit cuts, not the sentence that says what the code is for.
    const text = [`${s.qualifiedName} (${s.kind} in ${path})`, s.doc, s.signature].filter((t) => t !== "").join("\n");
    const hash = createHash("sha256").update(text).digest("hex").slice(0, 32);
    if (seen.has(hash)) continue;
    seen.add(hash);
    out.push({ name: s.qualifiedName, text, hash });
  }
  return out;
}
