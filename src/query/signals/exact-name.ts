import { findDefinitions } from "../definitions.js";
import type { SignalResult } from "../types.js";
import type { SignalContext } from "./context.js";
import { HitCollector } from "./result.js";

/**
 * Exact-name signal: every word of the task written like code (`charge_card`, `RetryPolicy`),
 * mentioned explicitly or not, scored at the files that define it; a rare name weighs more
 * than one defined in many files.
 */
export function exactNameSignal(ctx: SignalContext): SignalResult {
  const hits = new HitCollector();
  for (const name of ctx.task.codeWords) {
    const files = new Set(findDefinitions(ctx, name));
    for (const path of files) hits.add(path, 1 / files.size, `defines ${name}`);
  }
  return hits.result("exactName", ctx.config.signalDepth);
}
