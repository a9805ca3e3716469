/**
 * Stand-in embedding models for measuring how the fusion treats the semantic signal, served as an
 * OpenAI-compatible `/v1/embeddings` on loopback (no real model can be downloaded where we tune):
 *
 * - `random`: every text gets a random unit vector seeded by its hash — a model that knows
 *   nothing. The semantic signal's list is then pure noise; the fusion should lose (almost)
 *   nothing to it.
 * - `planted`: a model that knows the answers of a dataset. Each instance gets a random
 *   direction; its problem statement is embedded on that direction, and every summary of a file
 *   its gold patch changes is embedded half on it and half on noise. The right summaries are then
 *   the task's nearest (cosine about 0.7 against about 0 ± 0.06 for the rest); the fusion should
 *   lift those files.
 *
 * - `ngram`: no model at all, the model-free dense signal issue 21 asks to measure: identifiers
 *   are split into sub-words (`parseHTTPHeader` → parse, http, header), and each sub-word and its
 *   character trigrams are hashed into the vector (signed feature hashing, 1 + log tf, words
 *   weighted 1 and a word's trigrams 1 together). Cosine then matches `authenticate` with
 *   `authentication` and split identifiers with the words of a task, which exact terms miss.
 *
 *   node dist/bench/models/stand-in-embeddings.js --mode random|planted|ngram --dataset FILE [--port 0] [--dimension 256]
 *
 * It prints `listening http://127.0.0.1:PORT` and serves until killed. Use it as
 * `CTXSMITH_EMBED_PROVIDER=openai CTXSMITH_EMBED_URL=http://127.0.0.1:PORT CTXSMITH_EMBED_MODEL=MODE ctxsmith bench …`.
 */
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { loadDataset } from "../../src/bench/dataset.js";
import { parsePatch } from "../../src/bench/patch.js";
import { scoredGold } from "../../src/bench/score.js";

export type StandInMode = "random" | "planted" | "ngram";

/** English and code words too common to tell texts apart (the model has no corpus to weight them by). */
const STOP = new Set(("the a an and or of to in on for is are was were be been it its this that with as at by from not no but if " +
  "when then else than so do does did can could should would will may might have has had i we you he she they them our your " +
  "there here which what who how why all any some more most other such only own same too very just also into out up down over " +
  "return self def fn let var const new null none true false int str void public private static class function get set use").split(" "));

/** Sub-words of a text: identifiers split at case changes, digits and underscores, lower-cased. */
export function subwords(text: string): string[] {
  const words: string[] = [];
  for (const token of text.match(/[A-Za-z][A-Za-z0-9]*/g) ?? []) {
    for (const part of token.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])/)) {
      const w = part.toLowerCase();
      if (w.length >= 2 && !STOP.has(w)) words.push(w);
    }
  }
  return words;
}

/** The model-free vector of a text: its sub-words and their character trigrams, feature-hashed. */
export function ngramVector(text: string, dimension: number): number[] {
  const tf = new Map<string, number>();
  for (const w of subwords(text)) tf.set(w, (tf.get(w) ?? 0) + 1);
  const v = new Array<number>(dimension).fill(0);
  const add = (feature: string, weight: number): void => {
    const h = createHash("md5").update(feature).digest();
    v[h.readUInt32LE(0) % dimension]! += (h[4]! & 1 ? 1 : -1) * weight;
  };
  for (const [w, n] of tf) {
    const weight = 1 + Math.log(n);
    add(`w:${w}`, weight);
    const padded = `^${w}$`;
    const grams = padded.length - 2;
    for (let i = 0; i < grams; i++) add(`g:${padded.slice(i, i + 3)}`, weight / grams);
  }
  const n = Math.hypot(...v);
  return n > 0 ? v.map((x) => x / n) : seededUnit(text, dimension);
}

/** A deterministic unit vector of `dimension` from a seed text (Box–Muller over SHA-256 bytes). */
export function seededUnit(seed: string, dimension: number): number[] {
  const v: number[] = [];
  let block = 0;
  while (v.length < dimension) {
    const bytes = createHash("sha256").update(`${seed}\0${block++}`).digest();
    for (let i = 0; i + 4 <= bytes.length && v.length < dimension; i += 4) {
      const u1 = (bytes.readUInt16LE(i) + 1) / 65537;
      const u2 = bytes.readUInt16LE(i + 2) / 65536;
      v.push(Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2));
    }
  }
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/** The path a symbol summary names: its first line is `name (kind in path)` (src/indexing/embed-summary.ts). */
export function summaryPath(text: string): string | null {
  const first = text.split("\n", 1)[0]!;
  const match = / \([a-z]+ in (.+)\)$/.exec(first);
  return match ? match[1]! : null;
}

/** The vector function of a stand-in model over a dataset's instances. */
export function standInModel(mode: StandInMode, instances: ReadonlyArray<{ instance_id: string; problem_statement: string; patch: string }>, dimension = 256): (text: string) => number[] {
  if (mode === "random") return (text) => seededUnit(text, dimension);
  if (mode === "ngram") return (text) => ngramVector(text, dimension);
  const taskDirection = new Map<string, number[]>();
  const fileDirections = new Map<string, number[][]>();
  for (const instance of instances) {
    const direction = seededUnit(`instance ${instance.instance_id}`, dimension);
    taskDirection.set(instance.problem_statement, direction);
    for (const gold of scoredGold(parsePatch(instance.patch)).scored) fileDirections.set(gold.path, [...(fileDirections.get(gold.path) ?? []), direction]);
  }
  return (text) => {
    const task = taskDirection.get(text);
    if (task) return task;
    const noise = seededUnit(text, dimension);
    const path = summaryPath(text);
    const directions = path ? fileDirections.get(path) : undefined;
    if (!directions) return noise;
    // Half meaning, half noise: the summary is near each task whose fix changes its file.
    const v = noise.map((x, d) => x + directions.reduce((sum, dir) => sum + dir[d]!, 0) / Math.sqrt(directions.length));
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const opt = (name: string, fallback?: string): string | undefined => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : fallback;
  };
  const mode = opt("mode") as StandInMode | undefined;
  const dataset = opt("dataset");
  if ((mode !== "random" && mode !== "planted" && mode !== "ngram") || !dataset) {
    process.stderr.write("usage: stand-in-embeddings --mode random|planted|ngram --dataset FILE [--port 0] [--dimension 256]\n");
    process.exit(2);
  }
  const embed = standInModel(mode, loadDataset(dataset), Number(opt("dimension", "256")));
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/embeddings")) return void res.writeHead(404).end();
      const body = JSON.parse(raw) as { model: string; input: string[] };
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ object: "list", model: body.model, data: body.input.map((text, index) => ({ object: "embedding", index, embedding: embed(text) })) }));
    });
  });
  server.listen(Number(opt("port", "0")), "127.0.0.1", () => process.stdout.write(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
}
