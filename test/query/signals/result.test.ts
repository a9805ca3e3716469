import { describe, expect, it } from "vitest";
import { signalResult, type PendingHit } from "../../../src/query/signals/result.js";
import { seededRandom } from "../../helpers/random.js";

describe("signalResult", () => {
  it("keeps the hits a full sort by score, then path, puts first, with ties at the cut", () => {
    const next = seededRandom(11);
    for (const [n, depth] of [[0, 5], [3, 5], [5, 5], [200, 20], [2000, 60], [500, 1]] as const) {
      // Few distinct scores: many ties, across the cut too.
      const hits: PendingHit[] = Array.from({ length: n }, (_, i) => ({ path: `f${Math.floor(next() * 1e6)}-${i}`, score: Math.floor(next() * 12) / 4, evidence: `e${i}` }));
      const expected = [...hits].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).slice(0, depth);
      const result = signalResult("lexical", [...hits], depth);
      expect(result.hits).toEqual(expected.map(({ path, score, evidence }) => ({ path, score, evidence })));
    }
  });

  it("computes the evidence of the hits it keeps only", () => {
    const asked: string[] = [];
    const hits: PendingHit[] = ["a", "b", "c", "d"].map((path, i) => ({ path, score: i, evidence: () => (asked.push(path), path) }));
    expect(signalResult("lexical", hits, 2).hits.map((h) => h.path)).toEqual(["d", "c"]);
    expect(asked.sort()).toEqual(["c", "d"]);
    expect(signalResult("lexical", hits, 0).hits).toEqual([]);
  });
});
