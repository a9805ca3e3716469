import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GeminiEmbedder, OllamaEmbedder, OpenAIEmbedder, VoyageEmbedder } from "../../../src/runtime/embed/remote.js";
import { resolveEmbeddingSettings } from "../../../src/core/embedding-settings.js";
import { createEmbedder } from "../../../src/runtime/embed/factory.js";
import { Engine } from "../../../src/engine.js";
import { shopRepo } from "../../helpers/shop.js";
import { storeOf } from "../../helpers/store.js";

/** A deterministic 3-dimensional "embedding" of a text: letters a–i, j–r, s–z counted. */
function fakeVector(text: string): number[] {
  const v = [0, 0, 0];
  for (const ch of text.toLowerCase()) {
    if (ch >= "a" && ch <= "i") v[0]!++;
    else if (ch >= "j" && ch <= "r") v[1]!++;
    else if (ch >= "s" && ch <= "z") v[2]!++;
  }
  return v.map((x) => x + 0.5);
}

/** Fake Ollama (`/api/embed`) and OpenAI-compatible (`/v1/embeddings`) servers in one. */
function fakeServer(log: Array<{ path: string; body: { model: string; input: string[] }; auth: string | undefined }>): Server {
  return createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const body = JSON.parse(raw) as { model: string; input: string[] };
      log.push({ path: req.url ?? "", body, auth: req.headers.authorization });
      if (body.model === "broken") return void res.writeHead(500).end("model crashed");
      res.setHeader("content-type", "application/json");
      if (req.url === "/api/embed") return void res.end(JSON.stringify({ model: body.model, embeddings: body.input.map(fakeVector) }));
      if (req.url === "/v1/embeddings") {
        // Answers out of order, as the API allows: `index` says which input each is.
        return void res.end(JSON.stringify({ data: body.input.map((t, index) => ({ embedding: fakeVector(t), index })).reverse() }));
      }
      res.writeHead(404).end();
    });
  });
}

describe("Ollama and OpenAI-compatible providers (against local fake servers)", () => {
  const log: Array<{ path: string; body: { model: string; input: string[] }; auth: string | undefined }> = [];
  const server = fakeServer(log);
  let endpoint: string;
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("Ollama: batches of 64, unit vectors in input order, provenance from the first answer", async () => {
    log.length = 0;
    const ollama = new OllamaEmbedder({ endpoint, model: "nomic-embed-text", apiKey: null });
    const texts = Array.from({ length: 130 }, (_, i) => (i % 2 ? "abc" : "xyz"));
    const vectors = await ollama.embed(texts, "document");
    expect(vectors).toHaveLength(130);
    expect(log.filter((l) => l.path === "/api/embed").map((l) => l.body.input.length)).toEqual([64, 64, 2]);
    expect(log[0]!.body.model).toBe("nomic-embed-text");
    const expected = fakeVector("xyz");
    const n = Math.hypot(...expected);
    expect([...vectors[0]!]).toEqual(expected.map((x) => Math.fround(x / n)));
    expect(await ollama.provenance()).toEqual({ provider: "ollama", model: "nomic-embed-text", dimension: 3, pooling: "provider", key: `ollama:${endpoint}:nomic-embed-text` });
  });

  it("OpenAI-compatible: /v1/embeddings with the API key, answers put back in input order", async () => {
    log.length = 0;
    const openai = new OpenAIEmbedder({ endpoint: `${endpoint}/v1`, model: "text-embedding-3-small", apiKey: "sk-test" });
    const vectors = await openai.embed(["abc", "xyz", "jkl"], "query");
    expect(log[0]).toMatchObject({ path: "/v1/embeddings", auth: "Bearer sk-test" });
    const top = (v: Float32Array) => v.indexOf(Math.max(...v));
    expect(vectors.map(top)).toEqual([0, 2, 1]);
  });

  it("a server error or an unreachable server is a clear IO_ERROR", async () => {
    await expect(new OllamaEmbedder({ endpoint, model: "broken", apiKey: null }).embed(["x"], "document")).rejects.toThrow(/ollama embedding server \(model broken\) answered HTTP 500/);
    await expect(new OpenAIEmbedder({ endpoint: "http://127.0.0.1:9", model: "m", apiKey: null }).embed(["x"], "document")).rejects.toMatchObject({ code: "IO_ERROR", message: expect.stringMatching(/cannot be reached/) });
  });

  it("indexes and ranks through Ollama end to end", async () => {
    const repo = shopRepo();
    const cacheDir = mkdtempSync(join(tmpdir(), "ctxsmith-cache-"));
    const engine = new Engine(repo.root, { jobs: 1, git: false, embedding: { provider: "ollama", endpoint, model: "nomic-embed-text", cacheDir } });
    try {
      const stats = await engine.index();
      expect(stats.semantic).toMatchObject({ on: true, model: "ollama nomic-embed-text" });
      expect(storeOf(engine)!.meta().semantic!.provenance).toMatchObject({ provider: "ollama", dimension: 3 });
      const ranked = await engine.rank("charge card", { ranking: { weights: { lexical: 0, symbols: 0, references: 0, history: 0, semantic: 1 } } });
      expect(ranked.files.length).toBeGreaterThan(0);
      expect(ranked.files[0]!.signals.semantic).toBeDefined();
    } finally {
      await engine.close();
      repo.dispose();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});

interface HostedCall {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/**
 * Stand-ins for Google's Gemini API (`/v1beta/models/M:batchEmbedContents`, key in `x-goog-api-key`)
 * and Voyage AI's (`/v1/embeddings` with `input_type`), answering as those APIs document. A request
 * whose text is "busy" is refused with 429 once (with `Retry-After: 0`), then answered.
 */
function hostedServer(log: HostedCall[]): Server {
  let refused = false;
  return createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      log.push({ path: req.url ?? "", headers: req.headers, body });
      const texts: string[] = req.url!.includes(":batchEmbedContents")
        ? (body.requests as Array<{ content: { parts: Array<{ text: string }> } }>).map((r) => r.content.parts[0]!.text)
        : (body.input as string[]);
      if (texts.includes("busy") && !refused) {
        refused = true;
        return void res.writeHead(429, { "retry-after": "0" }).end('{"error":"rate limited"}');
      }
      if (texts.includes("overloaded")) return void res.writeHead(503).end("overloaded");
      if (texts.includes("quota")) return void res.writeHead(429).end('{"error":"quota"}');
      if (texts.includes("forbidden")) return void res.writeHead(403).end('{"error":"bad key"}');
      res.setHeader("content-type", "application/json");
      if (req.url!.startsWith("/v1beta/models/") && req.url!.endsWith(":batchEmbedContents")) {
        if (req.headers["x-goog-api-key"] !== "g-key") return void res.writeHead(403).end("no key");
        return void res.end(JSON.stringify({ embeddings: texts.map((t) => ({ values: fakeVector(t) })) }));
      }
      if (req.url === "/v1/embeddings") {
        if (req.headers.authorization !== "Bearer v-key") return void res.writeHead(401).end("no key");
        return void res.end(JSON.stringify({ object: "list", data: texts.map((t, index) => ({ object: "embedding", embedding: fakeVector(t), index })).reverse(), model: body.model }));
      }
      res.writeHead(404).end();
    });
  });
}

describe("Gemini and Voyage AI providers (against local stand-in servers)", () => {
  const log: HostedCall[] = [];
  const server = hostedServer(log);
  let endpoint: string;
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("Gemini: batches of 100, the key in a header and never in the URL, a task type per kind, the asked dimension", async () => {
    log.length = 0;
    const gemini = new GeminiEmbedder({ endpoint, model: "gemini-embedding-001", apiKey: "g-key", dimensions: 768 });
    const texts = Array.from({ length: 150 }, (_, i) => (i % 2 ? "abc" : "xyz"));
    const vectors = await gemini.embed(texts, "document");
    expect(vectors).toHaveLength(150);
    expect(vectors.map((v) => v.indexOf(Math.max(...v))).slice(0, 2)).toEqual([2, 0]);
    expect(log.map((l) => (l.body.requests as unknown[]).length)).toEqual([100, 50]);
    expect(log[0]!.path).toBe("/v1beta/models/gemini-embedding-001:batchEmbedContents");
    expect(log.every((l) => !l.path.includes("g-key") && l.headers.authorization === undefined)).toBe(true);
    expect((log[0]!.body.requests as unknown[])[0]).toEqual({ model: "models/gemini-embedding-001", content: { parts: [{ text: "xyz" }] }, taskType: "RETRIEVAL_DOCUMENT", outputDimensionality: 768 });
    await gemini.embed(["charge card"], "query");
    expect((log.at(-1)!.body.requests as Array<{ taskType: string }>)[0]!.taskType).toBe("CODE_RETRIEVAL_QUERY");
    // The asked dimension is part of the vector space's identity: vectors shortened otherwise never meet these.
    expect(await gemini.provenance()).toMatchObject({ provider: "gemini", dimension: 3, key: `gemini:${endpoint}:gemini-embedding-001:768d` });
  });

  it("Voyage AI: batches of 128, input_type per kind, answers put back in input order, the bearer key", async () => {
    log.length = 0;
    const voyage = new VoyageEmbedder({ endpoint, model: "voyage-code-3", apiKey: "v-key" });
    const vectors = await voyage.embed([...Array.from({ length: 129 }, () => "abc"), "xyz", "jkl"], "document");
    expect(log.map((l) => (l.body.input as unknown[]).length)).toEqual([128, 3]);
    expect(log[0]!.body).toMatchObject({ model: "voyage-code-3", input_type: "document", truncation: true });
    expect(log[0]!.body).not.toHaveProperty("output_dimension");
    expect(vectors.slice(-3).map((v) => v.indexOf(Math.max(...v)))).toEqual([0, 2, 1]);
    await voyage.embed(["charge card"], "query");
    expect(log.at(-1)!.body.input_type).toBe("query");
    expect(await voyage.provenance()).toMatchObject({ provider: "voyage", key: `voyage:${endpoint}:voyage-code-3` });
  });

  it("a rate limit is waited out (Retry-After), a busy server is tried again and then reported; a refused key says what to check", async () => {
    log.length = 0;
    const voyage = new VoyageEmbedder({ endpoint, model: "voyage-code-3", apiKey: "v-key", backoffMs: 1 });
    expect(await voyage.embed(["busy"], "document")).toHaveLength(1);
    expect(log).toHaveLength(2);
    log.length = 0;
    await expect(voyage.embed(["overloaded"], "document")).rejects.toMatchObject({ code: "IO_ERROR", message: expect.stringMatching(/voyage embedding server \(model voyage-code-3\) answered HTTP 503/) });
    expect(log).toHaveLength(4);
    log.length = 0;
    // A rate limit without Retry-After (Gemini's free tier): tried 5 times, waiting 5× the backoff (5, 10, 20, 40 ms here).
    const started = Date.now();
    await expect(voyage.embed(["quota"], "document")).rejects.toThrow(/HTTP 429 .*rate limited; tried again and gave up/);
    expect(log).toHaveLength(5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(75);
    log.length = 0;
    await expect(voyage.embed(["forbidden"], "document")).rejects.toThrow(/HTTP 403 .*check the API key/);
    expect(log).toHaveLength(1);
    await expect(new GeminiEmbedder({ endpoint, model: "gemini-embedding-001", apiKey: "wrong" }).embed(["x"], "query")).rejects.toThrow(/gemini embedding server .*HTTP 403/);
  });

  it("settings: each provider's default model, endpoint and key variable; a hosted API without a key is refused before any work", () => {
    const gemini = resolveEmbeddingSettings({}, { CTXSMITH_EMBED_PROVIDER: "gemini", GEMINI_API_KEY: "g" });
    expect(gemini).toMatchObject({ provider: "gemini", model: "gemini-embedding-001", endpoint: "https://generativelanguage.googleapis.com", apiKey: "g", dimensions: 768 });
    expect(resolveEmbeddingSettings({}, { CTXSMITH_EMBED_PROVIDER: "gemini", GOOGLE_API_KEY: "k2" }).apiKey).toBe("k2");
    const voyage = resolveEmbeddingSettings({}, { CTXSMITH_EMBED_PROVIDER: "Voyage", VOYAGE_API_KEY: "v", CTXSMITH_EMBED_DIMENSIONS: "512" });
    expect(voyage).toMatchObject({ provider: "voyage", model: "voyage-code-3", endpoint: "https://api.voyageai.com", apiKey: "v", dimensions: 512 });
    // Settings without a key still resolve (commands that never embed go on); making the embedder says what is missing.
    expect(() => createEmbedder(resolveEmbeddingSettings({}, { CTXSMITH_EMBED_PROVIDER: "voyage" }), { threads: 1 })).toThrow(/voyage embedding provider needs an API key: set VOYAGE_API_KEY/);
    expect(() => createEmbedder(resolveEmbeddingSettings({}, { CTXSMITH_EMBED_PROVIDER: "gemini" }), { threads: 1 })).toThrow(/GEMINI_API_KEY or GOOGLE_API_KEY/);
    const ollama = createEmbedder(resolveEmbeddingSettings({}, { CTXSMITH_EMBED_PROVIDER: "ollama", CTXSMITH_EMBED_MODEL: "m", CTXSMITH_EMBED_DIMENSIONS: "64" }), { threads: 1 });
    expect(ollama).toBeInstanceOf(OllamaEmbedder);
    // A stand-in server elsewhere may need no key.
    expect(resolveEmbeddingSettings({}, { CTXSMITH_EMBED_PROVIDER: "gemini", CTXSMITH_EMBED_URL: "http://127.0.0.1:1" }).apiKey).toBeNull();
    expect(() => resolveEmbeddingSettings({}, { CTXSMITH_EMBED_PROVIDER: "cohere" })).toThrow(/local, ollama, openai, gemini, voyage or none/);
    expect(() => resolveEmbeddingSettings({}, { CTXSMITH_EMBED_PROVIDER: "voyage", VOYAGE_API_KEY: "v", CTXSMITH_EMBED_DIMENSIONS: "lots" })).toThrow(/CTXSMITH_EMBED_DIMENSIONS/);
    expect(resolveEmbeddingSettings({}, { CTXSMITH_EMBED_PROVIDER: "ollama", CTXSMITH_EMBED_MODEL: "nomic-embed-text" })).toMatchObject({ endpoint: "http://127.0.0.1:11434", apiKey: null, dimensions: null });
  });

  it("indexes and ranks through Gemini end to end, from the environment's settings", async () => {
    const repo = shopRepo();
    const cacheDir = mkdtempSync(join(tmpdir(), "ctxsmith-cache-"));
    const settings = resolveEmbeddingSettings({ cacheDir }, { CTXSMITH_EMBED_PROVIDER: "gemini", CTXSMITH_EMBED_URL: endpoint, CTXSMITH_EMBED_API_KEY: "g-key" });
    expect(createEmbedder(settings, { threads: 1 })).toBeInstanceOf(GeminiEmbedder);
    const engine = new Engine(repo.root, { jobs: 1, git: false, embedding: settings });
    try {
      const stats = await engine.index();
      expect(stats.semantic).toMatchObject({ on: true, model: "gemini gemini-embedding-001" });
      expect(storeOf(engine)!.meta().semantic!.provenance).toMatchObject({ provider: "gemini", dimension: 3, key: `gemini:${endpoint}:gemini-embedding-001:768d` });
      const ranked = await engine.rank("charge card", { ranking: { weights: { lexical: 0, symbols: 0, references: 0, history: 0, semantic: 1 } } });
      expect(ranked.files[0]!.signals.semantic).toBeDefined();
    } finally {
      await engine.close();
      repo.dispose();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
