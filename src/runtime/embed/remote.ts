import { ContextSmithError } from "../../core/errors.js";
import type { Embedder, EmbedKind, Provenance } from "./types.js";
import { normalize } from "./vector-math.js";

/** Texts per request: both APIs take lists; this keeps requests and their failures small. */
const REQUEST_BATCH = 64;

/** A server's model, reached over HTTP. */
export interface RemoteOptions {
  endpoint: string;
  model: string;
  apiKey: string | null;
  signal?: AbortSignal;
}

/**
 * The shared part of the HTTP providers: batching, errors, normalisation and provenance (the
 * dimension is learnt from the first answer).
 */
abstract class RemoteEmbedder implements Embedder {
  #dimension: number | null = null;

  constructor(
    protected readonly options: RemoteOptions,
    private readonly provider: "ollama" | "openai",
  ) {}

  protected abstract request(texts: readonly string[]): Promise<number[][]>;

  async provenance(): Promise<Provenance> {
    if (this.#dimension === null) await this.embed(["dimension probe"], "document");
    const endpoint = this.options.endpoint.replace(/\/+$/, "");
    return { provider: this.provider, model: this.options.model, dimension: this.#dimension!, pooling: "provider", key: `${this.provider}:${endpoint}:${this.options.model}` };
  }

  async embed(texts: readonly string[], _kind: EmbedKind): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += REQUEST_BATCH) {
      const batch = texts.slice(i, i + REQUEST_BATCH);
      const vectors = await this.request(batch);
      if (vectors.length !== batch.length) throw this.error(`answered ${vectors.length} vectors for ${batch.length} texts`);
      for (const v of vectors) {
        if (!Array.isArray(v) || v.length === 0) throw this.error("answered an empty vector");
        if (this.#dimension !== null && v.length !== this.#dimension) throw this.error(`changed its dimension from ${this.#dimension} to ${v.length}`);
        this.#dimension = v.length;
        out.push(normalize(Float32Array.from(v)));
      }
    }
    return out;
  }

  async close(): Promise<void> {
    // Nothing held: the server owns its model's residency.
  }

  protected async post(path: string, body: unknown): Promise<unknown> {
    const url = `${this.options.endpoint.replace(/\/+$/, "")}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
        body: JSON.stringify(body),
        signal: this.options.signal,
      });
    } catch (error) {
      const cause = (error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw this.error(`cannot be reached at ${url} (${cause})`);
    }
    const text = await response.text();
    if (!response.ok) throw this.error(`answered HTTP ${response.status} at ${url}: ${text.slice(0, 200)}`);
    try {
      return JSON.parse(text);
    } catch {
      throw this.error(`answered something that is not JSON at ${url}`);
    }
  }

  protected error(what: string): ContextSmithError {
    return new ContextSmithError("IO_ERROR", `The ${this.provider} embedding server (model ${this.options.model}) ${what}.`);
  }
}

/** Ollama's `/api/embed`. */
export class OllamaEmbedder extends RemoteEmbedder {
  constructor(options: RemoteOptions) {
    super(options, "ollama");
  }

  protected async request(texts: readonly string[]): Promise<number[][]> {
    const body = (await this.post("/api/embed", { model: this.options.model, input: texts })) as { embeddings?: number[][] };
    if (!Array.isArray(body.embeddings)) throw this.error("answered without `embeddings`");
    return body.embeddings;
  }
}

/** Any OpenAI-compatible `/v1/embeddings` (OpenAI, LM Studio, llama.cpp server, vLLM, LocalAI…). */
export class OpenAIEmbedder extends RemoteEmbedder {
  constructor(options: RemoteOptions) {
    super(options, "openai");
  }

  protected async request(texts: readonly string[]): Promise<number[][]> {
    const base = this.options.endpoint.replace(/\/+$/, "");
    const path = base.endsWith("/v1") ? "/embeddings" : "/v1/embeddings";
    const body = (await this.post(path, { model: this.options.model, input: texts })) as { data?: Array<{ embedding: number[]; index?: number }> };
    if (!Array.isArray(body.data)) throw this.error("answered without `data`");
    return [...body.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((d) => d.embedding);
  }
}
