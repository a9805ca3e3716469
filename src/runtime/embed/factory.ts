import { LocalEmbedder, LocalReranker } from "./local.js";
import { locateModel } from "./model-store.js";
import { GeminiEmbedder, OllamaEmbedder, OpenAIEmbedder, VoyageEmbedder, type RemoteOptions } from "./remote.js";
import { missingKey, type EmbeddingSettings } from "../../core/embedding-settings.js";
import { ContextSmithError } from "../../core/errors.js";
import type { DownloadProgress, Embedder, Reranker } from "./types.js";

/** What a provider needs besides the settings. */
export interface ProviderOptions {
  /** Embed worker threads of the local provider. */
  threads: number;
  onDownload?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
}

/** The configured embedding provider, or null when semantic search is turned off (`none`). */
export function createEmbedder(settings: EmbeddingSettings, options: ProviderOptions): Embedder | null {
  const missing = missingKey(settings);
  if (missing) throw new ContextSmithError("INVALID_ARGUMENT", missing);
  const remote = (): RemoteOptions => ({ endpoint: settings.endpoint!, model: settings.model, apiKey: settings.apiKey, dimensions: settings.dimensions, signal: options.signal });
  switch (settings.provider) {
    case "none":
      return null;
    case "ollama":
      // Ollama's /api/embed cannot shorten vectors: a size asked of it would only rename the space.
      return new OllamaEmbedder({ ...remote(), dimensions: null });
    case "openai":
      return new OpenAIEmbedder(remote());
    case "gemini":
      return new GeminiEmbedder(remote());
    case "voyage":
      return new VoyageEmbedder(remote());
    case "local":
      return new LocalEmbedder({ ...localOptions(settings, settings.model, options), threads: options.threads });
  }
}

/** The cross-encoder of `--rerank` (always local ONNX). */
export function createReranker(settings: EmbeddingSettings, options: ProviderOptions): Reranker {
  return new LocalReranker({ ...localOptions(settings, settings.rerankModel, options), quantized: false, threads: options.threads });
}

function localOptions(settings: EmbeddingSettings, model: string, options: ProviderOptions) {
  return {
    model,
    quantized: settings.quantized,
    cacheDir: settings.cacheDir,
    keepAlive: settings.keepAlive,
    locate: () =>
      locateModel(model, {
        cacheDir: settings.cacheDir,
        offline: settings.offline,
        hubEndpoint: settings.hubEndpoint,
        quantized: settings.quantized,
        onProgress: options.onDownload,
        signal: options.signal,
      }),
  };
}
