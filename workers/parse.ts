/** Parse worker: loads tree-sitter and the grammars once per thread, then parses batches. */
import { Grammars } from "../src/indexing/parse/grammars.js";
import { nativeMemoryKeeper } from "../src/indexing/parse/native-memory.js";
import { parseBatch } from "../src/indexing/parse/parse-batch.js";
import type { ParseResult, ParseTask } from "../src/indexing/protocol.js";
import { ContextSmithError } from "../src/core/errors.js";

const grammars = new Grammars();
const afterBatch = nativeMemoryKeeper();

export default function parse(task: ParseTask): ParseResult {
  // A fault point for tests: with CTXSMITH_FAULT=parse-crash the thread dies on a file named CTXSMITH_FAULT*.
  if (process.env.CTXSMITH_FAULT === "parse-crash" && task.files.some((f) => f.path.includes("CTXSMITH_FAULT"))) process.exit(3);
  try {
    const result = parseBatch(grammars, task);
    afterBatch(task.files.reduce((bytes, f) => bytes + f.size, 0));
    return result;
  } catch (error) {
    // Errors cross the thread boundary as plain { code, message } and are rebuilt on the other side.
    throw ContextSmithError.from(error).toJSON();
  }
}
