import { isTestPath, isVendoredPath } from "../../core/languages.js";
import { frameLabel } from "../task.js";
import type { SignalResult } from "../types.js";
import type { SignalContext } from "./context.js";
import { HitCollector } from "./result.js";

/**
 * Innermost-frame signal: the project file of a Python traceback's innermost frame, where the
 * exception was raised — the fix's file in 13 of the 22 Python tuning tasks whose traceback
 * passes through the project. Frames outside the index (the standard library, other packages),
 * in tests (unless the task is about tests) and in vendored copies of other projects
 * (`requests/packages/urllib3/`, `_vendor/`) are passed over: the traceback went through them,
 * the project's own code is what changes. The references signal already weighs every frame by its
 * depth; this one lifts the innermost above files the task's words favour. Other formats (JVM,
 * JavaScript, compiler messages) are left to the references signal: on the multi-language tuning
 * set their innermost frame found as many fixes as it lost (bench/results-tune/task-evidence.md).
 */
export function innermostFrameSignal(ctx: SignalContext): SignalResult {
  const { task, paths } = ctx;
  const hits = new HitCollector();
  const frames = task.frames.filter((f) => f.python).sort((a, b) => b.depth - a.depth);
  for (const frame of frames) {
    const files = paths.resolve(frame.path).filter((p) => (task.aboutTests || !isTestPath(p)) && !isVendoredPath(p));
    if (files.length === 0) continue;
    const where = `innermost frame ${frameLabel(frame)}`;
    for (const path of files) hits.add(path, 1 / files.length, where);
    break;
  }
  return hits.result("innermostFrame", ctx.config.signalDepth);
}
