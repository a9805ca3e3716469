import { readFileSync } from "node:fs";
import { ContextSmithError } from "../core/errors.js";
import type { BenchInstance } from "./types.js";

const FIELDS = ["instance_id", "repo", "base_commit", "problem_statement", "patch"] as const;

/** Reads a JSONL dataset, keeping the instances of `repos` (all when empty). */
export function loadDataset(file: string, repos: readonly string[] = []): BenchInstance[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ContextSmithError("PATH_NOT_FOUND", `Cannot read the dataset ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const instances: BenchInstance[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ContextSmithError("INVALID_ARGUMENT", `${file}:${i + 1}: not a JSON object`);
    }
    const record = value as Record<string, unknown>;
    const absent = FIELDS.filter((f) => typeof record[f] !== "string");
    if (absent.length > 0) throw new ContextSmithError("INVALID_ARGUMENT", `${file}:${i + 1}: missing ${absent.join(", ")}`);
    if (repos.length === 0 || repos.includes(record.repo as string)) instances.push(record as unknown as BenchInstance);
  });
  return instances;
}
