import { ContextSmithError } from "../core/errors.js";
import type { Embedder } from "../runtime/embed/types.js";
import { modelName } from "../store/semantic-state.js";
import type { SemanticMeta } from "../store/types.js";

/** A task embedded (or not) by the configured model. */
export type TaskEmbedding = { vector: Float32Array; key: string } | { error: string };

/** The semantic signal's input for one query: the task's vector, or a notice saying why it has none. */
export interface TaskVector {
  vector: Float32Array | null;
  notice: string | null;
}

/**
 * Embeds `task` as a query (the model loads meanwhile, so this may run while the index is
 * refreshed); never rejects. Null without an embedder (semantic search turned off).
 */
export function embedTask(embedder: Embedder | null, task: string): Promise<TaskEmbedding> | null {
  if (!embedder) return null;
  return Promise.all([embedder.provenance(), embedder.embed([task], "query")]).then(
    ([provenance, [vector]]) => ({ vector: vector!, key: provenance.key }),
    (error: unknown) => ({ error: ContextSmithError.from(error, "INTERNAL").message }),
  );
}

/**
 * The vector of a started task embedding when the index has complete vectors of the same space;
 * otherwise a notice (vectors still being built, another model configured, the model missing).
 * An index without any vectors gets no notice: its index summary already said why.
 */
export async function taskVector(pending: Promise<TaskEmbedding> | null, semantic: SemanticMeta | null): Promise<TaskVector> {
  if (!semantic || semantic.vectors === 0 || !pending) return { vector: null, notice: null };
  const model = modelName(semantic.provenance);
  if (!semantic.complete) {
    return { vector: null, notice: `semantic signal skipped: the vectors of ${model} are still being built (${semantic.vectors} so far); \`ctxsmith index\` finishes them` };
  }
  const embedded = await pending;
  if ("error" in embedded) return { vector: null, notice: `semantic signal skipped: ${embedded.error}` };
  if (embedded.key !== semantic.provenance.key) {
    return { vector: null, notice: `semantic signal skipped: the index's vectors are from ${model}, not the model configured now; run \`ctxsmith index\` to rebuild them` };
  }
  return { vector: embedded.vector, notice: null };
}
