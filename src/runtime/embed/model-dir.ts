import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ContextSmithError } from "../../core/errors.js";
import type { Pooling } from "./types.js";

/** What a model folder says about itself: the ONNX file to load, pooling, lengths, dimension. */
export interface ModelCard {
  dir: string;
  /** The ONNX file, absolute. */
  onnx: string;
  /** Whether that file is int8-quantized (a quantized file of the model, or one made here). */
  int8: boolean;
  pooling: Exclude<Pooling, "provider">;
  /** Hidden size from config.json (the vector dimension of an encoder). */
  dimension: number | null;
  /** Token positions the model has (inputs are truncated to this). */
  maxLength: number;
  /** Text put before a query (BGE's or CodeRankEmbed's retrieval instruction), "" for most models. */
  queryPrefix: string;
  /** Changes when the weights or the way they are read change: part of the vector space's key. */
  fingerprint: string;
}

const ONNX_FILES = ["onnx/model.onnx", "model.onnx"];
const QUANTIZED_FILES = ["onnx/model_quantized.onnx", "onnx/model_int8.onnx", "model_quantized.onnx", "onnx/model_qint8_avx512_vnni.onnx"];

/**
 * Query instructions of models that need one and whose folders may not say it
 * (`config_sentence_transformers.json`'s `prompts.query` wins where present).
 */
const KNOWN_QUERY_PREFIXES: Array<[RegExp, string]> = [
  // BGE's English v1.5 models retrieve best with this instruction before a short query.
  [/bge-(small|base|large)-en-v1\.5/i, "Represent this sentence for searching relevant passages: "],
  // CodeRankEmbed (nomic-ai) was trained with this prefix on queries, none on code.
  [/coderankembed/i, "Represent this query for searching relevant code: "],
];

/** Reads a model folder; `model` (the id it was configured as) picks known query prefixes. */
export function readModelCard(dir: string, model: string, quantized: boolean): ModelCard {
  const candidates = quantized ? [...QUANTIZED_FILES, ...ONNX_FILES] : ONNX_FILES;
  const file = candidates.find((f) => existsSync(join(dir, f)));
  if (!file) throw new ContextSmithError("NOT_FOUND", `No ONNX model in ${dir} (looked for ${candidates.join(", ")}).`);
  const configText = readTextIfAny(join(dir, "config.json"));
  const config = parseJson(configText, join(dir, "config.json")) as { hidden_size?: number; max_position_embeddings?: number } | null;
  const poolingFile = join(dir, "1_Pooling", "config.json");
  const poolingConfig = parseJson(readTextIfAny(poolingFile), poolingFile) as { pooling_mode_cls_token?: boolean; pooling_mode_mean_tokens?: boolean; pooling_mode_lasttoken?: boolean } | null;
  const pooling = poolingConfig?.pooling_mode_cls_token
    ? "cls"
    : poolingConfig?.pooling_mode_lasttoken
      ? "last"
      : poolingConfig?.pooling_mode_mean_tokens
        ? "mean"
        : /bge|coderankembed/i.test(model)
          ? "cls"
          : "mean";
  const promptsFile = join(dir, "config_sentence_transformers.json");
  const prompts = (parseJson(readTextIfAny(promptsFile), promptsFile) as { prompts?: Record<string, unknown> } | null)?.prompts;
  const queryPrefix = typeof prompts?.query === "string" ? prompts.query : KNOWN_QUERY_PREFIXES.find(([id]) => id.test(model))?.[1] ?? "";
  const onnx = join(dir, file);
  const stat = statSync(onnx);
  const fingerprint = createHash("sha256")
    .update(`${file}\0${stat.size}\0${configText}\0${pooling}`)
    .digest("hex")
    .slice(0, 16);
  return {
    dir,
    onnx,
    int8: QUANTIZED_FILES.includes(file),
    pooling,
    dimension: typeof config?.hidden_size === "number" ? config.hidden_size : null,
    maxLength: Math.min(512, config?.max_position_embeddings ?? 512),
    queryPrefix,
    fingerprint,
  };
}

function readTextIfAny(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** A JSON file's text parsed; null for an absent file (empty text). */
function parseJson(text: string, path: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ContextSmithError("INVALID_ARGUMENT", `Cannot read ${path}: ${(error as Error).message}`);
  }
}
