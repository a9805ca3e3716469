import { findDefinitions } from "../definitions.js";
import { frameLabel } from "../task.js";
import type { SignalResult } from "../types.js";
import type { SignalContext } from "./context.js";
import { HitCollector } from "./result.js";

/** Weights of the kinds of reference, relative to one another. */
const FRAME = 3;
const PATH = 3;
const MODULE = 2.5;
const MEMBER = 1;
const IDENTIFIER = 2;

/**
 * Explicit-reference signal: what the task names outright — traceback frames and `file:line`
 * mentions, file paths, dotted module paths, backticked or called identifiers — mapped to the
 * files that hold them. An ambiguous reference (a file name several folders share, a name
 * defined in several files) is split among its files.
 */
export function referencesSignal(ctx: SignalContext): SignalResult {
  const { task, paths } = ctx;
  const hits = new HitCollector();

  // The deepest frame in the repository is most often where the fix goes.
  for (const frame of task.frames) {
    let files = paths.resolve(frame.path);
    // Kotlin leaves a common root package out of the folders: a shorter package tail, down to one folder.
    const parts = frame.jvm ? frame.path.split("/") : [];
    for (let i = 1; files.length === 0 && i < parts.length - 1; i++) files = paths.resolve(parts.slice(i).join("/"));
    const depth = 0.5 + 0.5 * frame.depth;
    for (const path of files) hits.add(path, (FRAME * depth) / files.length, `frame ${frameLabel(frame)}`);
  }

  for (const written of task.paths) {
    const files = paths.resolve(written);
    for (const path of files) hits.add(path, PATH / files.length, `path ${written}`);
  }

  for (const dotted of task.dotted) {
    const module = paths.resolveModule(dotted);
    if (!module) continue;
    for (const path of module.paths) {
      hits.add(path, MODULE / module.paths.length, `module ${dotted}`);
      // `module.Class.method`: the member is defined there.
      const member = module.rest[0];
      if (member && ctx.symbols(path)?.some((s) => s.name === member)) hits.add(path, MEMBER, `defines ${member}`);
    }
  }

  for (const name of task.identifiers) {
    const files = new Set(findDefinitions(ctx, name));
    for (const path of files) hits.add(path, IDENTIFIER / files.size, `defines ${name}`);
  }
  // `Class.method` written in the task: the file defining exactly that member.
  for (const dotted of task.dotted) {
    const parts = dotted.split(".");
    if (parts.length < 2) continue;
    const qualified = parts.slice(-2).join(".");
    const files = new Set(findDefinitions(ctx, qualified));
    for (const path of files) hits.add(path, IDENTIFIER / files.size, `defines ${qualified}`);
  }
  return hits.result("references", ctx.config.signalDepth);
}
