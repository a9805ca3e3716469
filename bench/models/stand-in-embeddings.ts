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
 *   node dist/bench/models/stand-in-embeddings.js --mode random|planted --dataset FILE [--port 0] [--dimension 256]
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

export type StandInMode = "random" | "planted";

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
  if ((mode !== "random" && mode !== "planted") || !dataset) {
    process.stderr.write("usage: stand-in-embeddings --mode random|planted --dataset FILE [--port 0] [--dimension 256]\n");
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
