import type { SignalContext } from "./signals/context.js";

/** A name defined in more files than this is too common to point anywhere (`__init__`, `run`). */
const MAX_DEFINING_FILES = 30;

/**
 * The files that define `name` (a simple name, case kept, or `Class.method`), from the index of
 * exact definition names; a qualified name is checked against the candidates' symbols. Empty
 * when the name is too common to point anywhere.
 */
export function findDefinitions(ctx: Pick<SignalContext, "lexical" | "symbols">, name: string): string[] {
  const dot = name.lastIndexOf(".");
  const simple = dot >= 0 ? name.slice(dot + 1) : name;
  const { ids } = ctx.lexical.names.postings(simple);
  if (ids.length === 0 || ids.length > MAX_DEFINING_FILES) return [];
  const paths: string[] = [];
  for (const id of ids) {
    const path = ctx.lexical.pathOf(id);
    if (!path) continue;
    if (dot < 0 || ctx.symbols(path)?.some((s) => s.name === simple && s.qualifiedName.endsWith(name))) paths.push(path);
  }
  return paths;
}
