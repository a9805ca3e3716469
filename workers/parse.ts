/** Parse worker: loads tree-sitter and the grammars once per thread, then parses batches (the default export) and outlines texts (`outline`). */
import { Grammars } from "../src/indexing/parse/grammars.js";
import { nativeMemoryKeeper } from "../src/indexing/parse/native-memory.js";
import { outlineTexts, parseBatch } from "../src/indexing/parse/parse-batch.js";
import type { OutlineResult, OutlineTask, ParseResult, ParseTask } from "../src/indexing/protocol.js";
import { ContextSmithError } from "../src/core/errors.js";

const grammars = new Grammars();
const afterBatch = nativeMemoryKeeper();

export default function parse(task: ParseTask): ParseResult {
  // A fault point for tests: with CTXSMITH_FAULT=parse-crash the thread dies on a file named CTXSMITH_FAULT*.
  if (process.env.CTXSMITH_FAULT === "parse-crash" && task.files.some((f) => f.path.includes("CTXSMITH_FAULT"))) process.exit(3);
  return crossing(() => {
    const result = parseBatch(grammars, task);
    afterBatch(task.files.reduce((bytes, f) => bytes + f.size, 0));
    return result;
  });
}

export function outline(task: OutlineTask): OutlineResult {
  return crossing(() => {
    const result = outlineTexts(grammars, task);
    afterBatch(task.texts.reduce((chars, t) => chars + t.text.length, 0));
    return result;
  });
}

/** Errors cross the thread boundary as plain { code, message } and are rebuilt on the other side. */
function crossing<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw ContextSmithError.from(error).toJSON();
  }
}
