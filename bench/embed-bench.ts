/**
 * Embedding benchmark, with generated models of bge-small's architecture (12 layers, hidden 384,
 * 12 heads, intermediate 1536, random weights: the same cost as the real model, no download), or
 * of CodeRankEmbed's size (`--shape coderankembed`: hidden 768, feed-forward 3072):
 *
 * 1. throughput (summaries/s, tokens/s) and peak memory of the embed pool on a sample of the
 *    repository's symbol summaries, float32 and int8 (dynamic quantization), `--jobs 1` and `2`,
 *    alternated round by round so that both see the same machine;
 * 2. the whole embed stage on the repository (int8, 2 jobs), then a one-file edit re-index;
 * 3. kNN query time, HNSW against brute force, and HNSW recall@10; the task-embedding latency.
 *
 * The vocabulary is made from the repository's own words (no real BERT vocabulary can be
 * downloaded): words up to 6 letters whole, longer ones in pieces, so summaries come out at a
 * token count close to what BERT's vocabulary gives; the tokens per summary are reported.
 *
 *   npm run build
 *   node dist/bench/embed-bench.js --repo /path/to/checkout [--sample 1000] [--rounds 3] [--shape bge-small|coderankembed]
 *     [--throughput-only 1] [--out bench/results-embed.md]
 */
import { IndexStore } from "../src/store/store.js";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { basename, join } from "node:path";
import { median } from "../src/bench/summary.js";
import { isTestPath } from "../src/core/languages.js";
import { LocalEmbedder } from "../src/runtime/embed/local.js";
import { DOCUMENT_MAX_TOKENS } from "../src/runtime/embed/onnx-encoder.js";
import { readModelCard } from "../src/runtime/embed/model-dir.js";
import { quantizeModel } from "../src/runtime/embed/quantize.js";
import { symbolSummaries, type Summary } from "../src/indexing/embed-summary.js";
import { ModelTokenizer } from "../src/runtime/embed/tokenizer.js";
import { Engine } from "../src/engine.js";
import { embedTask } from "../src/query/task-vector.js";
import { createEmbedder } from "../src/runtime/embed/factory.js";
import { resolveEmbeddingSettings } from "../src/core/embedding-settings.js";
import { BruteForceIndex, openVectorSearch, storedVectors, writeHnsw } from "../src/store/vector-index.js";
import { benchArgs } from "./args.js";
import { BGE_SMALL, CODERANKEMBED, makeVocab, writeModelDir } from "./models/bert-onnx.js";

const opt = benchArgs("embed-bench --repo PATH [--sample N] [--rounds N] [--shape bge-small|coderankembed] [--throughput-only 1] [--out FILE]", ["repo"]);
const SHAPES = { "bge-small": BGE_SMALL, coderankembed: CODERANKEMBED };
const shapeName = opt("shape", "bge-small") as keyof typeof SHAPES;
const shape = SHAPES[shapeName];
if (!shape) throw new Error(`--shape must be ${Object.keys(SHAPES).join(" or ")}`);
const throughputOnly = opt("throughput-only") === "1";
const repo = opt("repo")!;
const sampleSize = Number(opt("sample", "1000"));
const rounds = Number(opt("rounds", "3"));
const out = opt("out");
const work = mkdtempSync(join(tmpdir(), "ctxsmith-embed-bench-"));
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const ms = (x: number): string => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(x < 10 ? 2 : 0)} ms`);
const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(0)} MB`;

/** Peak RSS of this process (the embed workers are threads of it) while `work` runs. */
async function peakRss<T>(fn: () => Promise<T>): Promise<{ value: T; peak: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 25);
  try {
    const value = await fn();
    return { value, peak: Math.max(peak, process.memoryUsage.rss()) };
  } finally {
    clearInterval(timer);
  }
}

/** The repository's symbol summaries (non-test files), from a lexical index in a temp folder. */
async function repoSummaries(): Promise<Summary[]> {
  const engine = new Engine(repo, { jobs: 2, git: false, semantic: false, indexDir: join(work, "lexical-index") });
  try {
    await engine.index();
    const store = IndexStore.openForRead(engine.config.indexDir)!;
    const all: Summary[] = [];
    for (const file of store.allFiles()) {
      if (file.skipped || file.language === null || isTestPath(file.path)) continue;
      all.push(...symbolSummaries(file.path, store.parse.symbols(file.path) ?? []));
    }
    return all;
  } finally {
    await engine.close();
  }
}

/** Words up to 6 letters whole, frequent 2–4 letter continuations for longer ones: ~BERT's split of code text. */
function vocabularyOf(summaries: readonly Summary[]): string[] {
  const words = new Map<string, number>();
  const pieces = new Map<string, number>();
  for (const s of summaries) {
    for (const word of s.text.toLowerCase().split(/[^a-z0-9]+/)) {
      if (word.length === 0) continue;
      if (word.length <= 6) words.set(word, (words.get(word) ?? 0) + 1);
      else for (let i = 4; i < word.length; i += 3) pieces.set(`##${word.slice(i, i + 3)}`, (pieces.get(`##${word.slice(i, i + 3)}`) ?? 0) + 1);
      if (word.length > 6) words.set(word.slice(0, 4), (words.get(word.slice(0, 4)) ?? 0) + 1);
    }
  }
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([w]) => w);
  return makeVocab([...top(words, 20_000), ...top(pieces, 6_000)], 30_522);
}

function sample<T>(items: readonly T[], n: number): T[] {
  const step = Math.max(1, Math.floor(items.length / n));
  return items.filter((_, i) => i % step === 0).slice(0, n);
}

async function main(): Promise<void> {
  const lines: string[] = [];
  const say = (line = ""): void => {
    lines.push(line);
    log(line);
  };
  log(`indexing ${repo} lexically for its summaries…`);
  const summaries = await repoSummaries();
  const vocab = vocabularyOf(summaries);
  // One float32 model; int8 is what `CTXSMITH_EMBED_QUANTIZED=1` makes of it (quantized once, cached).
  const model = writeModelDir(join(work, shapeName), { ...shape, vocab });
  const cacheDir = join(work, "cache");
  const t0 = performance.now();
  const quantizedFile = join(cacheDir, "quantized", `${readModelCard(model, model, false).fingerprint}.onnx`);
  const { quantized: layers } = await quantizeModel(join(model, "onnx", "model.onnx"), quantizedFile);
  const quantizeMs = performance.now() - t0;
  const tokenizer = ModelTokenizer.fromDir(model);
  const texts = sample(summaries, sampleSize).map((s) => s.text);
  const tokens = texts.map((t) => tokenizer.encode(t, DOCUMENT_MAX_TOKENS).ids.length).sort((a, b) => a - b);
  const totalTokens = tokens.reduce((a, b) => a + b, 0);

  say(`# Embedding benchmark: ${basename(repo)}`);
  say();
  say(`Machine: ${cpus()[0]?.model ?? "?"}, ${cpus().length} cores, ${mb(totalmem())} RAM, Node ${process.version}; shared and noisy: medians of ${rounds} rounds, configurations alternated within each round.`);
  say(`Model: generated, ${shapeName}'s size (${shape.layers} layers, hidden ${shape.hidden}, ${shape.heads} heads, feed-forward ${shape.intermediate}, 30,522-word vocabulary), random weights; float32 (${mb(statSync(join(model, "onnx", "model.onnx")).size)}), and int8 as \`CTXSMITH_EMBED_QUANTIZED=1\` makes it on first use (dynamic quantization of its ${layers} weight matrices, ${mb(statSync(quantizedFile).size)}, ${ms(quantizeMs)}).`);
  say(`Repository: ${summaries.length.toLocaleString("en-US")} summaries of functions and classes in non-test files. Sample: ${texts.length}, tokens per summary median ${tokens[tokens.length >> 1]}, p90 ${tokens[Math.floor(tokens.length * 0.9)]}, mean ${(totalTokens / tokens.length).toFixed(1)} (cut at ${DOCUMENT_MAX_TOKENS}).`);
  say();

  // 1. Throughput.
  const configs = [
    { name: "float32, --jobs 1", quantized: false, threads: 1 },
    { name: "float32, --jobs 2", quantized: false, threads: 2 },
    { name: "int8, --jobs 1", quantized: true, threads: 1 },
    { name: "int8, --jobs 2", quantized: true, threads: 2 },
  ];
  const results = new Map<string, { rate: number[]; load: number[]; peak: number[] }>(configs.map((c) => [c.name, { rate: [], load: [], peak: [] }]));
  for (let round = 0; round < rounds; round++) {
    for (const c of configs) {
      const embedder = new LocalEmbedder({ model, locate: async () => model, quantized: c.quantized, cacheDir, threads: c.threads, keepAlive: "always" });
      try {
        const base = process.memoryUsage.rss();
        const t0 = performance.now();
        await embedder.embed(texts.slice(0, 16 * c.threads), "document"); // several batches: loads the model in every worker
        const load = performance.now() - t0;
        const { value: elapsed, peak } = await peakRss(async () => {
          const t1 = performance.now();
          await embedder.embed(texts, "document");
          return performance.now() - t1;
        });
        const r = results.get(c.name)!;
        r.rate.push(texts.length / (elapsed / 1000));
        r.load.push(load);
        r.peak.push(peak - base);
        log(`round ${round + 1} ${c.name}: ${(texts.length / (elapsed / 1000)).toFixed(1)} summaries/s`);
      } finally {
        await embedder.close();
      }
    }
  }
  say("## Throughput (the embed pool alone)");
  say();
  say("| model, workers | summaries/s | tokens/s | model load (first batch) | memory over the process before |");
  say("|---|---:|---:|---:|---:|");
  for (const c of configs) {
    const r = results.get(c.name)!;
    const rate = median(r.rate);
    say(`| ${c.name} | **${rate.toFixed(1)}** (${r.rate.map((x) => x.toFixed(0)).join(", ")}) | ${((rate * totalTokens) / tokens.length).toFixed(0)} | ${ms(median(r.load))} | ${mb(median(r.peak))} |`);
  }
  say();

  if (throughputOnly) {
    rmSync(work, { recursive: true, force: true });
    if (out) appendFileSync(out, `\n${lines.join("\n")}\nCommand: \`node dist/bench/embed-bench.js --repo ${basename(repo)} --sample ${sampleSize} --rounds ${rounds} --shape ${shapeName} --throughput-only 1\`, ${new Date().toISOString().slice(0, 10)}.\n`);
    return;
  }

  // 2. The whole embed stage, then a one-file edit.
  const indexDir = join(work, "semantic-index");
  const engine = new Engine(repo, { jobs: 2, git: false, indexDir, embedding: { provider: "local", model, quantized: true, cacheDir, keepAlive: "always" } });
  try {
    log("embedding the whole repository (int8, 2 workers)…");
    const cold = await engine.index();
    const store = IndexStore.openForRead(engine.config.indexDir)!;
    const semantic = store.meta().semantic!;
    say("## The embed stage on the whole repository (int8, --jobs 2)");
    say();
    say(`- cold: ${cold.semantic.embedded.toLocaleString("en-US")} summaries embedded in ${ms(cold.timings.embed ?? 0)} (${((cold.semantic.embedded / (cold.timings.embed ?? 1)) * 1000).toFixed(0)}/s, HNSW graph included), whole index run ${ms(cold.timings.total ?? 0)}; ${semantic.vectors.toLocaleString("en-US")} vectors, search: ${semantic.hnsw ? "HNSW" : "brute force"}`);
    const size = (path: string): number => {
      try {
        return statSync(path).size;
      } catch {
        return 0;
      }
    };
    const hnswFile = semantic.hnsw ? size(join(indexDir, semantic.hnsw.file)) : 0;
    say(`- disk: the index ${mb(size(join(indexDir, "index.lmdb")))} (${mb(size(join(work, "lexical-index", "index.lmdb")))} without vectors), HNSW graph ${mb(hnswFile)}, the shared vector cache ${mb(size(join(cacheDir, "vectors.lmdb")))}; vectors are stored as float16`);
    const noChange = await engine.index();
    say(`- no change: embed stage ${ms(noChange.timings.embed ?? 0)}, whole run ${ms(noChange.timings.total ?? 0)}`);

    // A one-file edit: one function's doc sentence changes.
    const embedded = [...store.vectors.all()];
    const target = (embedded.find(([p, v]) => p.endsWith(".py") && v.labels.length >= 5) ?? embedded[0]!)[0];
    const abs = join(repo, target);
    const original = readFileSync(abs, "utf8");
    try {
      writeFileSync(abs, `${original}\n\ndef contextsmith_bench_probe(x):\n    """Returns x unchanged: a probe of the one-file re-index."""\n    return x\n`);
      const edited = await engine.index();
      say(`- one-file edit (\`${target}\`, a function added): ${edited.semantic.embedded} summary embedded, ${edited.semantic.cached} from the cache; embed stage ${ms(edited.timings.embed ?? 0)}, whole re-index ${ms(edited.timings.total ?? 0)}`);
    } finally {
      writeFileSync(abs, original);
      await engine.index();
    }
    const fresh = new Engine(repo, { jobs: 2, git: false, indexDir: join(work, "fresh-index"), embedding: { provider: "local", model, quantized: true, cacheDir } });
    const copy = await fresh.index();
    await fresh.close();
    say(`- a fresh checkout of the same code (new index, same vector cache): ${copy.semantic.embedded} embedded, ${copy.semantic.cached.toLocaleString("en-US")} from the cache, embed stage ${ms(copy.timings.embed ?? 0)}`);
    say();

    // 3. Queries.
    const current = store.meta().semantic!;
    const t0 = performance.now();
    const hnsw = openVectorSearch(store, current);
    const hnswLoad = performance.now() - t0;
    const t1 = performance.now();
    const brute = BruteForceIndex.fromStore(store, current.provenance.dimension);
    const bruteLoad = performance.now() - t1;
    const queries = sample([...storedVectors(store, current.provenance.dimension)], 100).map(([, v]) =>
      // A query near, not on, a stored vector.
      v.map((x, i) => x + (i % 7 === 0 ? 0.02 : -0.01)),
    );
    const time = (search: { search(q: Float32Array, k: number): unknown }, k: number) =>
      median(queries.map((q) => {
        const s = performance.now();
        search.search(q, k);
        return performance.now() - s;
      }));
    let agree = 0;
    for (const q of queries) {
      const truth = new Set(brute.search(q, 10).map((n) => n.label));
      agree += hnsw.search(q, 10).filter((n) => truth.has(n.label)).length;
    }
    const tasks = createEmbedder(resolveEmbeddingSettings({ provider: "local", model, quantized: true, cacheDir, keepAlive: "always" }), { threads: 1 });
    await embedTask(tasks, "warm up");
    const taskTimes: number[] = [];
    for (let i = 0; i < 10; i++) {
      const s = performance.now();
      await embedTask(tasks, `Substituting a symbol into a Piecewise expression raises a TypeError when the condition is relational (${i}). ${"The traceback points at subs. ".repeat(3)}`);
      taskTimes.push(performance.now() - s);
    }
    await tasks?.close();
    say("## Queries");
    say();
    say(`| over ${current.vectors.toLocaleString("en-US")} vectors | load | kNN k=120 (the signal) | kNN k=10 |`);
    say("|---|---:|---:|---:|");
    say(`| HNSW (M 16, efConstruction 100, ef ≥ 200) | ${ms(hnswLoad)} | ${ms(time(hnsw, 120))} | ${ms(time(hnsw, 10))} |`);
    say(`| brute force (Float32Array) | ${ms(bruteLoad)} | ${ms(time(brute, 120))} | ${ms(time(brute, 10))} |`);
    say();
    const b0 = performance.now();
    const built = writeHnsw(store, current, -1, [], []);
    const buildMs = performance.now() - b0;
    if (built) rmSync(join(indexDir, `${built.file}`), { force: true });
    say(`HNSW graph built from scratch over the ${current.vectors.toLocaleString("en-US")} stored vectors: ${ms(buildMs)} (what a fresh checkout with a warm vector cache spends most of its embed stage on).`);
    say(`HNSW recall@10 against brute force: ${(agree / (queries.length * 10)).toFixed(3)} (100 queries). Embedding a task (a 60-word issue text, warm model, int8, one worker): median ${ms(median(taskTimes))}.`);
  } finally {
    await engine.close();
    rmSync(work, { recursive: true, force: true });
  }
  if (out) {
    writeFileSync(out, `${lines.join("\n")}\n`);
    appendFileSync(out, `\nCommand: \`node dist/bench/embed-bench.js --repo ${basename(repo)} --sample ${sampleSize} --rounds ${rounds}\`, ${new Date().toISOString().slice(0, 10)}.\n`);
  }
}

await main();
