import { setTimeout as sleep } from "node:timers/promises";
import { ContextSmithError } from "../../core/errors.js";
import type { EmbedProvider } from "../../core/embedding-settings.js";
import type { Embedder, EmbedKind, Provenance } from "./types.js";
import { normalize } from "./vector-math.js";

/** A server's model, reached over HTTP. */
export interface RemoteOptions {
  endpoint: string;
  model: string;
  apiKey: string | null;
  /** The vector size to ask for, where the API can shorten its vectors; null: the model's own. */
  dimensions?: number | null;
  signal?: AbortSignal;
  /** The first wait before retrying a rate-limited or overloaded server without `Retry-After` (doubles each time). */
  backoffMs?: number;
}

type RemoteProvider = Exclude<EmbedProvider, "local">;

/** Tries of one request in all, when the server answers "busy" (502, 503, 504). */
const ATTEMPTS = 4;
/**
 * A rate limit (429) without `Retry-After` is tried longer and waited for 5× longer (5, 10, 20,
 * 40 s by default): hosted APIs count requests per minute (Gemini's free tier answers 429 with no
 * header), so the window has to pass.
 */
const RATE_LIMIT_ATTEMPTS = 5;
const RATE_LIMIT_FACTOR = 5;
/** A `Retry-After` longer than this is not waited for: the error says so instead. */
const MAX_RETRY_AFTER_MS = 60_000;
const RETRIED_STATUSES = new Set([429, 502, 503, 504]);

/**
 * The shared part of the HTTP providers: batching, retries, errors, normalisation and provenance
 * (the dimension is learnt from the first answer).
 */
abstract class RemoteEmbedder implements Embedder {
  #dimension: number | null = null;

  constructor(
    protected readonly options: RemoteOptions,
    private readonly provider: RemoteProvider,
    /** Texts per request: each API takes lists up to a limit; this keeps requests and their failures small. */
    private readonly batchSize: number,
  ) {}

  protected abstract request(texts: readonly string[], kind: EmbedKind): Promise<number[][]>;

  async provenance(): Promise<Provenance> {
    if (this.#dimension === null) await this.embed(["dimension probe"], "document");
    const asked = this.options.dimensions ? `:${this.options.dimensions}d` : "";
    return { provider: this.provider, model: this.options.model, dimension: this.#dimension!, pooling: "provider", key: `${this.provider}:${this.base}:${this.options.model}${asked}` };
  }

  async embed(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      const batch = texts.slice(i, i + this.batchSize);
      const vectors = await this.request(batch, kind);
      if (!Array.isArray(vectors) || vectors.length !== batch.length) throw this.error(`answered ${Array.isArray(vectors) ? vectors.length : "no"} vectors for ${batch.length} texts`);
      for (const v of vectors) {
        if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === "number" && Number.isFinite(x))) throw this.error("answered an empty or non-numeric vector");
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

  protected get base(): string {
    return this.options.endpoint.replace(/\/+$/, "");
  }

  /** `path` under the API's `/v1`, whether the configured endpoint ends with it or not. */
  protected v1(path: string): string {
    return this.base.endsWith("/v1") ? path : `/v1${path}`;
  }

  /** How the key is sent: a bearer token, unless the API wants its own header. */
  protected authHeaders(): Record<string, string> {
    return this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {};
  }

  /** POSTs JSON and reads JSON back; a rate limit or a busy server is retried, honouring `Retry-After`. */
  protected async post(path: string, body: unknown): Promise<unknown> {
    const url = `${this.base}${path}`;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", ...this.authHeaders() },
          body: JSON.stringify(body),
          signal: this.options.signal,
        });
      } catch (error) {
        if (this.options.signal?.aborted) throw error;
        const cause = (error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
        throw this.error(`cannot be reached at ${url} (${cause})`);
      }
      const text = await response.text();
      if (response.ok) {
        try {
          return JSON.parse(text);
        } catch {
          throw this.error(`answered something that is not JSON at ${url}`);
        }
      }
      const wait = this.retryWait(response, attempt);
      if (wait === null) throw this.error(`answered HTTP ${response.status} at ${url}${hint(response.status)}: ${text.slice(0, 200)}`);
      await sleep(wait, undefined, { signal: this.options.signal });
    }
  }

  /** Milliseconds to wait before the next try, or null when this answer is final. */
  private retryWait(response: Response, attempt: number): number | null {
    const limited = response.status === 429;
    if (!RETRIED_STATUSES.has(response.status) || attempt >= (limited ? RATE_LIMIT_ATTEMPTS : ATTEMPTS)) return null;
    const header = response.headers.get("retry-after");
    if (header !== null) {
      const seconds = Number(header);
      const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
      if (Number.isFinite(ms)) return ms > MAX_RETRY_AFTER_MS ? null : Math.max(0, ms);
    }
    return (this.options.backoffMs ?? 1000) * (limited ? RATE_LIMIT_FACTOR : 1) * 2 ** (attempt - 1);
  }

  protected error(what: string): ContextSmithError {
    return new ContextSmithError("IO_ERROR", `The ${this.provider} embedding server (model ${this.options.model}) ${what}.`);
  }
}

function hint(status: number): string {
  if (status === 401 || status === 403) return " (check the API key: CTXSMITH_EMBED_API_KEY or the provider's own variable)";
  if (status === 429) return " (rate limited; tried again and gave up)";
  return "";
}

/** Ollama's `/api/embed`. */
export class OllamaEmbedder extends RemoteEmbedder {
  constructor(options: RemoteOptions) {
    super(options, "ollama", 64);
  }

  protected async request(texts: readonly string[]): Promise<number[][]> {
    const body = (await this.post("/api/embed", { model: this.options.model, input: texts })) as { embeddings?: number[][] };
    if (!Array.isArray(body.embeddings)) throw this.error("answered without `embeddings`");
    return body.embeddings;
  }
}

/** `{ data: [{ embedding, index }] }`, the shape OpenAI's and Voyage AI's APIs answer with, in input order. */
function inInputOrder(body: { data?: Array<{ embedding: number[]; index?: number }> }, error: (what: string) => Error): number[][] {
  if (!Array.isArray(body.data)) throw error("answered without `data`");
  return [...body.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((d) => d.embedding);
}

/** Any OpenAI-compatible `/v1/embeddings` (OpenAI, LM Studio, llama.cpp server, vLLM, LocalAI…). */
export class OpenAIEmbedder extends RemoteEmbedder {
  constructor(options: RemoteOptions) {
    super(options, "openai", 64);
  }

  protected async request(texts: readonly string[]): Promise<number[][]> {
    const dimensions = this.options.dimensions ? { dimensions: this.options.dimensions } : {};
    return inInputOrder((await this.post(this.v1("/embeddings"), { model: this.options.model, input: texts, ...dimensions })) as never, (what) => this.error(what));
  }
}

/**
 * Voyage AI's `/v1/embeddings` (voyage-code-3 by default): documents and queries are embedded with
 * their own `input_type`; at most 128 texts a request (the limit of its newer models).
 */
export class VoyageEmbedder extends RemoteEmbedder {
  constructor(options: RemoteOptions) {
    super(options, "voyage", 128);
  }

  protected async request(texts: readonly string[], kind: EmbedKind): Promise<number[][]> {
    const dimensions = this.options.dimensions ? { output_dimension: this.options.dimensions } : {};
    const body = { model: this.options.model, input: texts, input_type: kind, truncation: true, ...dimensions };
    return inInputOrder((await this.post(this.v1("/embeddings"), body)) as never, (what) => this.error(what));
  }
}

/**
 * Google's Gemini API, `models/{model}:batchEmbedContents` (gemini-embedding-001 by default): at
 * most 100 texts a request; summaries as `RETRIEVAL_DOCUMENT`, tasks as `CODE_RETRIEVAL_QUERY` (a
 * question in words looking for code). The key goes in `x-goog-api-key`, never in the URL.
 */
export class GeminiEmbedder extends RemoteEmbedder {
  constructor(options: RemoteOptions) {
    super(options, "gemini", 100);
  }

  protected override authHeaders(): Record<string, string> {
    return this.options.apiKey ? { "x-goog-api-key": this.options.apiKey } : {};
  }

  protected async request(texts: readonly string[], kind: EmbedKind): Promise<number[][]> {
    const model = this.options.model.startsWith("models/") ? this.options.model : `models/${this.options.model}`;
    const version = /\/v1(beta)?$/.test(this.base) ? "" : "/v1beta";
    const dimensions = this.options.dimensions ? { outputDimensionality: this.options.dimensions } : {};
    const requests = texts.map((text) => ({ model, content: { parts: [{ text }] }, taskType: kind === "query" ? "CODE_RETRIEVAL_QUERY" : "RETRIEVAL_DOCUMENT", ...dimensions }));
    const body = (await this.post(`${version}/${model}:batchEmbedContents`, { requests })) as { embeddings?: Array<{ values?: number[] }> };
    if (!Array.isArray(body.embeddings)) throw this.error("answered without `embeddings`");
    return body.embeddings.map((e) => e.values as number[]);
  }
}
