/** The main-thread <-> embed-worker contract (see workers/embed.ts). */
import type { ModelCard } from "./model-dir.js";
import type { EmbedKind } from "./types.js";

export const EMBED_PROTOCOL_VERSION = 1;

export type EmbedTask =
  | { version: number; op: "embed"; card: ModelCard; kind: EmbedKind; texts: string[] }
  | { version: number; op: "score"; card: ModelCard; query: string; documents: string[] };

/** Vectors packed one after another (`dimension` floats each), or one score per document. */
export interface EmbedResult {
  values: Float32Array;
  dimension: number;
}
