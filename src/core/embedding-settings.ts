import { cacheRoot } from "./cache-dir.js";
import { envFlag, envText } from "./env.js";
import { ContextSmithError } from "./errors.js";

/**
 * Who makes the vectors: a local ONNX model, an Ollama server, an OpenAI-compatible one, or one of
 * the hosted APIs of Google (Gemini) and Voyage AI.
 */
export type EmbedProvider = "local" | "ollama" | "openai" | "gemini" | "voyage";

const PROVIDERS: readonly (EmbedProvider | "none")[] = ["local", "ollama", "openai", "gemini", "voyage", "none"];

/** What a provider is reached at and called with when the settings do not say. */
const PROVIDER_DEFAULTS: Record<Exclude<EmbedProvider, "local">, { endpoint: string; model: string | null; keyVariables: readonly string[]; dimensions: number | null }> = {
  ollama: { endpoint: "http://127.0.0.1:11434", model: null, keyVariables: [], dimensions: null },
  openai: { endpoint: "https://api.openai.com", model: null, keyVariables: ["OPENAI_API_KEY"], dimensions: null },
  // 3,072 dimensions by default: four times the memory and disk of 768 for little retrieval gain (Google recommends 768, 1,536 or 3,072).
  gemini: { endpoint: "https://generativelanguage.googleapis.com", model: "gemini-embedding-001", keyVariables: ["GEMINI_API_KEY", "GOOGLE_API_KEY"], dimensions: 768 },
  voyage: { endpoint: "https://api.voyageai.com", model: "voyage-code-3", keyVariables: ["VOYAGE_API_KEY"], dimensions: null },
};

/**
 * Why `settings` cannot embed at all (a hosted API without its key), or null. Asked where an
 * embedder is made, not when settings are read: commands that never embed must not fail on it.
 */
export function missingKey(settings: EmbeddingSettings): string | null {
  if (settings.provider === "local" || settings.provider === "none") return null;
  const remote = PROVIDER_DEFAULTS[settings.provider];
  if (remote.keyVariables.length === 0 || settings.apiKey !== null || settings.endpoint !== remote.endpoint) return null;
  return `The ${settings.provider} embedding provider needs an API key: set ${remote.keyVariables.join(" or ")} (or CTXSMITH_EMBED_API_KEY).`;
}

/** How long a loaded model stays resident after its last use: milliseconds, or for the process's life. */
export type KeepAlive = number | "always";

/** Embedding settings, resolved once from options and the environment (see resolveEmbeddingSettings). */
export interface EmbeddingSettings {
  /** `none` turns semantic search off. */
  readonly provider: EmbedProvider | "none";
  /** A Hugging Face model id or a local folder (local), or the provider's model name. */
  readonly model: string;
  /** Base URL of a remote provider's server. */
  readonly endpoint: string | null;
  readonly apiKey: string | null;
  /** The vector size asked of a remote provider that can shorten its vectors; null: the model's own. */
  readonly dimensions: number | null;
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
 * - `CTXSMITH_EMBED_PROVIDER` `local` (default) | `ollama` | `openai` | `gemini` | `voyage` | `none`
 * - `CTXSMITH_EMBED_MODEL` a Hugging Face id or a local folder (default BAAI/bge-small-en-v1.5),
 *   or the server's model name (Gemini: gemini-embedding-001, Voyage: voyage-code-3 by default)
 * - `CTXSMITH_EMBED_URL` the server (defaults in PROVIDER_DEFAULTS), `CTXSMITH_EMBED_API_KEY` (or the
 *   provider's own variable: OPENAI_API_KEY, GEMINI_API_KEY / GOOGLE_API_KEY, VOYAGE_API_KEY)
 * - `CTXSMITH_EMBED_DIMENSIONS` the vector size asked of a remote provider (Gemini: 768 by default)
 * - `CTXSMITH_CACHE_DIR` (default `$XDG_CACHE_HOME/contextsmith` or `~/.cache/contextsmith`)
 * - `HF_HUB_OFFLINE=1` or `CTXSMITH_OFFLINE=1`; `HF_ENDPOINT`
 * - `CTXSMITH_KEEP_ALIVE` `30s` (default), `0`, `5m`, `always`; `CTXSMITH_EMBED_QUANTIZED=1`
 * - `CTXSMITH_RERANK_MODEL` (default Xenova/ms-marco-MiniLM-L-6-v2)
 */
export function resolveEmbeddingSettings(overrides: Partial<EmbeddingSettings> = {}, env: NodeJS.ProcessEnv = process.env): EmbeddingSettings {
  const provider = overrides.provider ?? parseProvider(env.CTXSMITH_EMBED_PROVIDER);
  const remote = provider === "local" || provider === "none" ? null : PROVIDER_DEFAULTS[provider];
  const model = overrides.model ?? envText(env.CTXSMITH_EMBED_MODEL) ?? (remote ? remote.model ?? "" : DEFAULT_EMBED_MODEL);
  if (model === "") throw new ContextSmithError("INVALID_ARGUMENT", `Set CTXSMITH_EMBED_MODEL to the ${provider} model to use (e.g. nomic-embed-text).`);
  const cacheDir = overrides.cacheDir ?? cacheRoot(env);
  const endpoint = overrides.endpoint ?? envText(env.CTXSMITH_EMBED_URL) ?? remote?.endpoint ?? null;
  const apiKey = overrides.apiKey ?? [env.CTXSMITH_EMBED_API_KEY, ...(remote?.keyVariables.map((name) => env[name]) ?? [])].map(envText).find((key) => key !== undefined) ?? null;
  return Object.freeze({
    provider,
    model,
    endpoint,
    apiKey,
    dimensions: overrides.dimensions ?? parseDimensions(env.CTXSMITH_EMBED_DIMENSIONS) ?? remote?.dimensions ?? null,
    cacheDir,
    offline: overrides.offline ?? (envFlag(env.HF_HUB_OFFLINE) || envFlag(env.CTXSMITH_OFFLINE)),
    hubEndpoint: (overrides.hubEndpoint ?? envText(env.HF_ENDPOINT) ?? "https://huggingface.co").replace(/\/+$/, ""),
    keepAlive: overrides.keepAlive ?? (env.CTXSMITH_KEEP_ALIVE ? parseKeepAlive(env.CTXSMITH_KEEP_ALIVE) : DEFAULT_KEEP_ALIVE_MS),
    quantized: overrides.quantized ?? envFlag(env.CTXSMITH_EMBED_QUANTIZED),
    rerankModel: overrides.rerankModel ?? envText(env.CTXSMITH_RERANK_MODEL) ?? DEFAULT_RERANK_MODEL,
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
  const provider = PROVIDERS.find((p) => p === text);
  if (provider) return provider;
  throw new ContextSmithError("INVALID_ARGUMENT", `CTXSMITH_EMBED_PROVIDER must be ${PROVIDERS.slice(0, -1).join(", ")} or none, not "${value}".`);
}

function parseDimensions(value: string | undefined): number | undefined {
  const text = envText(value);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 65_536) throw new ContextSmithError("INVALID_ARGUMENT", `CTXSMITH_EMBED_DIMENSIONS must be a whole number of dimensions, not "${value}".`);
  return n;
}
