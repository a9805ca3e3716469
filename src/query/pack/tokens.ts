import { createRequire } from "node:module";
import { ContextSmithError } from "../../core/errors.js";

/** Counts tokens the way the model that reads the context does. */
export interface TokenCounter {
  readonly encoding: string;
  count(text: string): number;
  /** Releases the encoder's WebAssembly memory. */
  free(): void;
}

const require = createRequire(import.meta.url);

/**
 * A tiktoken counter for `encoding` (`cl100k_base`, `o200k_base`, …). Loading the encoder costs
 * a few hundred milliseconds of WebAssembly set-up, so callers create one per process, lazily,
 * and only on the path that packs.
 */
export function tiktokenCounter(encoding: string): TokenCounter {
  const tiktoken = require("tiktoken") as typeof import("tiktoken");
  let encoder: ReturnType<typeof tiktoken.get_encoding>;
  try {
    encoder = tiktoken.get_encoding(encoding as Parameters<typeof tiktoken.get_encoding>[0]);
  } catch {
    throw new ContextSmithError("INVALID_ARGUMENT", `Unknown token encoding "${encoding}": use cl100k_base, o200k_base, p50k_base, r50k_base or gpt2.`);
  }
  return {
    encoding,
    // Special-token text in code (`<|endoftext|>` in a tokenizer's tests) is counted as plain text.
    count: (text) => (text === "" ? 0 : encoder.encode_ordinary(text).length),
    free: () => encoder.free(),
  };
}
