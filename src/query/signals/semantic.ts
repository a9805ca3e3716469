import type { SignalResult } from "../types.js";

/**
 * Semantic signal: kNN over symbol-summary vectors. No index holds vectors yet (the embedding
 * stage is a later step), so it finds nothing and fusion goes on with the other signals; it is
 * here so that weights, ablations and `rank` output already name it.
 */
export function semanticSignal(): SignalResult {
  return { name: "semantic", hits: [] };
}
