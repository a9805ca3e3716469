/**
 * The contract between a serving thread and its index thread (workers/index.ts). Index runs go
 * there so that the serving thread stays a reader: graph resolution, the lexical export and the
 * HNSW build never stall its event loop. The embedder stays with the serving thread (one model per
 * process, warm for task vectors too): the index thread asks it for vectors over the same port.
 * Bump INDEX_PROTOCOL_VERSION when a shape changes.
 */
import type { Config } from "../core/config.js";
import type { IndexStats, ProgressEvent } from "../core/types.js";
import type { EmbedKind, Provenance } from "./embed/types.js";

export const INDEX_PROTOCOL_VERSION = 2;

/** An error as it crosses the thread boundary (see ContextSmithError.toJSON). */
export interface WireError {
  code: string;
  message: string;
}

/** Serving thread -> index thread. */
export type ToIndexThread =
  | { type: "run"; version: number; run: number; config: Config; semantic: boolean; wait: boolean; waitTimeoutMs: number | undefined }
  | { type: "cancel"; run: number }
  /** The answer to an embedder call of a run. */
  | { type: "embedder"; run: number; call: number; provenance?: Provenance; vectors?: Float32Array[]; error?: WireError };

/** Index thread -> serving thread. */
export type FromIndexThread =
  | { type: "progress"; run: number; event: ProgressEvent }
  | { type: "done"; run: number; stats: IndexStats }
  | { type: "failed"; run: number; error: WireError }
  /** A run's embed stage asks the serving thread's embedder. */
  | { type: "provenance"; run: number; call: number }
  | { type: "embed"; run: number; call: number; texts: string[]; kind: EmbedKind };
