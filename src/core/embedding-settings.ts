import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { ContextSmithError } from "./errors.js";

/** Who makes the vectors: a local ONNX model, an Ollama server, or an OpenAI-compatible one. */
export type EmbedProvider = "local" | "ollama" | "openai";

/** How long a loaded model stays resident after its last use: milliseconds, or for the process's life. */
export type KeepAlive = number | "always";

/** Embedding settings, resolved once from options and the environment (see resolveEmbeddingSettings). */
export interface EmbeddingSettings {
  /** `none` turns semantic search off. */
  readonly provider: EmbedProvider | "none";
  /** A Hugging Face model id or a local folder (local), or the provider's model name. */
  readonly model: string;
  /** Base URL of an Ollama or OpenAI-compatible server. */
  readonly endpoint: string | null;
  readonly apiKey: string | null;
  /** Cache folder: downloaded models (`models/`) and the vector cache (`vectors.lmdb`). */
  readonly cacheDir: string;
  /** Never touch the network (HF_HUB_OFFLINE / CTXSMITH_OFFLINE). */
  readonly offline: boolean;
  /** The Hugging Face hub (HF_ENDPOINT). */
  readonly hubEndpoint: string;
  readonly keepAlive: KeepAlive;
  /** Prefer a model's int8 file (`onnx/model_quantized.onnx`) where it has one. */
  readonly quantized: boolean;
  /** The cross-encoder of `--rerank`. */
  readonly rerankModel: string;
}

export const DEFAULT_EMBED_MODEL = "BAAI/bge-small-en-v1.5";
/** The transformers.js export of cross-encoder/ms-marco-MiniLM-L-6-v2 (such exports keep `onnx/model.onnx` and `tokenizer.json`). */
export const DEFAULT_RERANK_MODEL = "Xenova/ms-marco-MiniLM-L-6-v2";
const DEFAULT_KEEP_ALIVE_MS = 30_000;

/**
 * The embedding settings from explicit options over the environment:
 *
 * - `CTXSMITH_EMBED_PROVIDER` `local` (default) | `ollama` | `openai` | `none`
 * - `CTXSMITH_EMBED_MODEL` a Hugging Face id or a local folder (default BAAI/bge-small-en-v1.5),
 *   or the server's model name for `ollama`/`openai`
 * - `CTXSMITH_EMBED_URL` the server (default http://127.0.0.1:11434 for Ollama), `CTXSMITH_EMBED_API_KEY`
 * - `CTXSMITH_CACHE_DIR` (default `$XDG_CACHE_HOME/contextsmith` or `~/.cache/contextsmith`)
 * - `HF_HUB_OFFLINE=1` or `CTXSMITH_OFFLINE=1`; `HF_ENDPOINT`
 * - `CTXSMITH_KEEP_ALIVE` `30s` (default), `0`, `5m`, `always`; `CTXSMITH_EMBED_QUANTIZED=1`
 * - `CTXSMITH_RERANK_MODEL` (default Xenova/ms-marco-MiniLM-L-6-v2)
 */
export function resolveEmbeddingSettings(overrides: Partial<EmbeddingSettings> = {}, env: NodeJS.ProcessEnv = process.env): EmbeddingSettings {
  const provider = overrides.provider ?? parseProvider(env.CTXSMITH_EMBED_PROVIDER);
  const model = overrides.model ?? nonEmpty(env.CTXSMITH_EMBED_MODEL) ?? (provider === "local" || provider === "none" ? DEFAULT_EMBED_MODEL : "");
  if (model === "") throw new ContextSmithError("INVALID_ARGUMENT", `Set CTXSMITH_EMBED_MODEL to the ${provider} model to use (e.g. nomic-embed-text).`);
  const cacheDir = overrides.cacheDir ?? resolve(nonEmpty(env.CTXSMITH_CACHE_DIR) ?? join(nonEmpty(env.XDG_CACHE_HOME) ?? join(homedir(), ".cache"), "contextsmith"));
  return Object.freeze({
    provider,
    model,
    endpoint: overrides.endpoint ?? nonEmpty(env.CTXSMITH_EMBED_URL) ?? (provider === "ollama" ? "http://127.0.0.1:11434" : provider === "openai" ? "https://api.openai.com" : null),
    apiKey: overrides.apiKey ?? nonEmpty(env.CTXSMITH_EMBED_API_KEY) ?? (provider === "openai" ? nonEmpty(env.OPENAI_API_KEY) : undefined) ?? null,
    cacheDir,
    offline: overrides.offline ?? (truthy(env.HF_HUB_OFFLINE) || truthy(env.CTXSMITH_OFFLINE)),
    hubEndpoint: (overrides.hubEndpoint ?? nonEmpty(env.HF_ENDPOINT) ?? "https://huggingface.co").replace(/\/+$/, ""),
    keepAlive: overrides.keepAlive ?? (env.CTXSMITH_KEEP_ALIVE ? parseKeepAlive(env.CTXSMITH_KEEP_ALIVE) : DEFAULT_KEEP_ALIVE_MS),
    quantized: overrides.quantized ?? truthy(env.CTXSMITH_EMBED_QUANTIZED),
    rerankModel: overrides.rerankModel ?? nonEmpty(env.CTXSMITH_RERANK_MODEL) ?? DEFAULT_RERANK_MODEL,
  });
}

/** `30s`, `5m`, `1h`, `250ms`, a bare number of seconds, `0`, or `always` / `-1`. */
export function parseKeepAlive(value: string): KeepAlive {
  const text = value.trim().toLowerCase();
  if (text === "always" || text === "forever" || text === "-1") return "always";
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(text);
  if (!match) throw new ContextSmithError("INVALID_ARGUMENT", `Keep-alive must be a duration like 30s, 5m, 0 or always, not "${value}".`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? "s") as "ms" | "s" | "m" | "h"];
  return Math.round(Number(match[1]) * unit);
}

function parseProvider(value: string | undefined): EmbedProvider | "none" {
  const text = (value ?? "local").trim().toLowerCase() || "local";
  if (text === "local" || text === "ollama" || text === "openai" || text === "none") return text;
  throw new ContextSmithError("INVALID_ARGUMENT", `CTXSMITH_EMBED_PROVIDER must be local, ollama, openai or none, not "${value}".`);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value.trim() : undefined;
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}
