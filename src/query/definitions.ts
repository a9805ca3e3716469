import { isTestPath } from "../core/languages.js";
import type { SignalContext } from "./signals/context.js";

/** A name defined in more files than this is too common to point anywhere (`__init__`, `run`). */
const MAX_DEFINING_FILES = 30;

/**
 * The files that define `name` (a simple name, case kept, or `Class.method`), from the index of
 * exact definition names; a qualified name is checked against the candidates' symbols. Empty
 * when the name is too common to point anywhere. Unless the task is about tests, a name that
 * code outside the tests defines points there only: a test's helper or fixture of the same name
 * (Rust's `mod tests`, a test utility called like the program) is not what the task names.
 */
export function findDefinitions(ctx: Pick<SignalContext, "lexical" | "symbols" | "task">, name: string): string[] {
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
  if (ctx.task.aboutTests) return paths;
  const code = paths.filter((p) => !isTestPath(p));
  return code.length > 0 ? code : paths;
}
