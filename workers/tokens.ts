/**
 * Token-count worker: loads an encoder once (tens of milliseconds for the rank table, hundreds for
 * tiktoken's WebAssembly where that is used, so it runs beside the query instead of before it) and
 * counts texts on request.
 */
import { parentPort, workerData } from "node:worker_threads";
import { ContextSmithError } from "../src/core/errors.js";
import { tokenCounter, type TokenCounter } from "../src/query/pack/tokens.js";
import type { TokenRequest, TokenResponse, TokenWorkerData } from "../src/runtime/token-worker.js";

const counters = new Map<string, TokenCounter>();
const { cacheDir } = workerData as TokenWorkerData;

parentPort!.on("message", ({ id, encoding, texts }: TokenRequest) => {
  // A fault point for tests: with CTXSMITH_FAULT=tokens-exit the thread dies on the text "CTXSMITH_FAULT".
  if (process.env.CTXSMITH_FAULT === "tokens-exit" && texts.includes("CTXSMITH_FAULT")) process.exit(3);
  let response: TokenResponse;
  try {
    let counter = counters.get(encoding);
    if (!counter) counters.set(encoding, (counter = tokenCounter(encoding, cacheDir)));
    response = { id, counts: texts.map((t) => counter.count(t)) };
  } catch (error) {
    response = { id, error: ContextSmithError.from(error, "INTERNAL").toJSON() };
  }
  parentPort!.postMessage(response);
});
