import { describe, expect, it } from "vitest";
import { ContextSmithError } from "../../src/core/errors.js";
import { DEFAULT_RANKING, resolveRanking, type RankingOverrides } from "../../src/query/ranking-config.js";

/** The error `resolveRanking` throws for `overrides` (they are not well-typed on purpose: JSON from a user). */
function refusal(overrides: unknown): ContextSmithError {
  try {
    resolveRanking(overrides as RankingOverrides);
  } catch (error) {
    if (error instanceof ContextSmithError) return error;
    throw error;
  }
  throw new Error("accepted");
}

describe("resolveRanking", () => {
  it("lays overrides over the defaults, group by group", () => {
    const config = resolveRanking({ rrfK: 30, weights: { history: 0 }, pack: { proseValue: 1 }, bm25: { b: 0.5 } });
    expect(config.rrfK).toBe(30);
    expect(config.weights).toEqual({ ...DEFAULT_RANKING.weights, history: 0 });
    expect(config.pack).toEqual({ ...DEFAULT_RANKING.pack, proseValue: 1 });
    expect(config.bm25).toEqual({ k1: DEFAULT_RANKING.bm25.k1, b: 0.5 });
    // Over another base, the base's values stay where nothing overrides them.
    expect(resolveRanking({ scoreMix: 0 }, config).rrfK).toBe(30);
  });

  it("refuses unknown settings, values of the wrong kind and non-finite numbers with INVALID_ARGUMENT", () => {
    const cases: Array<[unknown, string]> = [
      [{ pack: { prosevalue: 0 } }, 'Unknown ranking setting "pack.prosevalue"'],
      [{ weights: { lexicon: 1 } }, 'Unknown ranking setting "weights.lexicon"'],
      [{ rrf: 60 }, 'Unknown ranking setting "rrf"'],
      [{ pack: { proseValue: "0.1" } }, 'Ranking setting "pack.proseValue" must be a finite number, not "0.1"'],
      [{ testPenalty: Number.NaN }, 'Ranking setting "testPenalty" must be a finite number'],
      [{ pack: { encoding: 5 } }, 'Ranking setting "pack.encoding" must be a string, not 5'],
      [{ pack: 3 }, 'Ranking overrides for "pack" must be an object'],
      [[1], "Ranking overrides must be an object"],
      [{ toString: 1 }, 'Unknown ranking setting "toString"'],
    ];
    for (const [overrides, message] of cases) {
      const error = refusal(overrides);
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.message).toContain(message);
    }
  });
});
