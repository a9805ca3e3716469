import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathKey, readCacheFile, writeCacheFile } from "../../core/cache-file.js";
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
 * The counter of `encoding`: {@link BpeCounter} over tiktoken's rank file (the same counts), or
 * tiktoken's WebAssembly encoder when the file or its pattern is beyond it. The rank file takes
 * tens of milliseconds to read; with `cacheDir`, the tables read from it are kept in
 * `<cacheDir>/bpe/` and load in a few the next time (the token thread of a one-shot `ctxsmith
 * context` was the last to be ready).
 */
export function tokenCounter(encoding: string, cacheDir: string | null = null): TokenCounter {
  const bpe = ENCODINGS.has(encoding) ? bpeCounter(encoding, cacheDir) : null;
  return bpe ? { encoding, count: (text) => bpe.count(text), free: () => undefined } : tiktokenCounter(encoding);
}

/** Null when the rank file cannot be read (a trimmed install) or the counter declines it. */
function bpeCounter(encoding: string, cacheDir: string | null): BpeCounter | null {
  let path: string;
  let cache: { path: string; prefix: string } | null = null;
  try {
    path = require.resolve(`tiktoken/encoders/${encoding}.json`);
    // Named by where the rank file is and its identity: a reinstalled or upgraded tiktoken is another file.
    const { size, ino, mtimeMs, ctimeMs } = statSync(path);
    const prefix = `${encoding}-${pathKey(path)}-`;
    if (cacheDir !== null) cache = { path: join(cacheDir, "bpe", `${prefix}${size}-${ino}-${Math.round(mtimeMs)}-${Math.round(ctimeMs)}.bin`), prefix };
  } catch {
    return null;
  }
  const saved = cache === null ? undefined : readCacheFile(cache.path);
  const loaded = saved && BpeCounter.load(saved);
  if (loaded) return loaded;
  let file: RankFile;
  try {
    file = JSON.parse(readFileSync(path, "utf8")) as RankFile;
  } catch {
    return null;
  }
  const counter = BpeCounter.from(file);
  if (counter && cache !== null) {
    const tables = counter.save();
    if (tables) writeCacheFile(cache.path, tables, (name) => name.startsWith(cache.prefix));
  }
  return counter;
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
