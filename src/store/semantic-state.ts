import type { SemanticMeta } from "./types.js";

/** Whether queries can search the index's vectors: some were built, and completely (no model change in progress). */
export function semanticReady(semantic: SemanticMeta | null): semantic is SemanticMeta {
  return semantic !== null && semantic.complete && semantic.vectors > 0;
}

/** How a model is named to users: `local BAAI/bge-small-en-v1.5`, `ollama nomic-embed-text`. */
export function modelName(m: { provider: string; model: string }): string {
  return `${m.provider} ${m.model}`;
}
