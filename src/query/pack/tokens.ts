import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { ContextSmithError } from "../../core/errors.js";
import { BpeCounter, type RankFile } from "./bpe.js";

/** Counts tokens the way the model that reads the context does. */
export interface TokenCounter {
  readonly encoding: string;
  count(text: string): number;
  /** Releases the encoder's memory (tiktoken's WebAssembly). */
  free(): void;
}

const require = createRequire(import.meta.url);

/** The encodings whose rank files tiktoken ships. */
const ENCODINGS: ReadonlySet<string> = new Set(["cl100k_base", "o200k_base", "p50k_base", "p50k_edit", "r50k_base", "gpt2"]);

/**
 * The counter of `encoding`: {@link BpeCounter} over tiktoken's rank file (ready in tens of
 * milliseconds, the same counts), or tiktoken's WebAssembly encoder when the file or its pattern
 * is beyond it.
 */
export function tokenCounter(encoding: string): TokenCounter {
  const bpe = ENCODINGS.has(encoding) ? bpeCounter(encoding) : null;
  return bpe ? { encoding, count: (text) => bpe.count(text), free: () => undefined } : tiktokenCounter(encoding);
}

/** Null when the rank file cannot be read (a trimmed install) or the counter declines it. */
function bpeCounter(encoding: string): BpeCounter | null {
  let file: RankFile;
  try {
    file = JSON.parse(readFileSync(require.resolve(`tiktoken/encoders/${encoding}.json`), "utf8")) as RankFile;
  } catch {
    return null;
  }
  return BpeCounter.from(file);
}

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
    throw new ContextSmithError("INVALID_ARGUMENT", `Unknown token encoding "${encoding}": use ${[...ENCODINGS].join(", ")}.`);
  }
  return {
    encoding,
    // Special-token text in code (`<|endoftext|>` in a tokenizer's tests) is counted as plain text.
    count: (text) => (text === "" ? 0 : encoder.encode_ordinary(text).length),
    free: () => encoder.free(),
  };
}
