import { describe, expect, it } from "vitest";
import { scoreBm25, topTerms } from "../../../src/query/signals/bm25.js";
import { Bm25Builder } from "../../../src/store/lexical.js";
import { seededRandom } from "../../helpers/random.js";


describe("scoreBm25", () => {
  it("scores each matching document and names, as evidence, the four terms a stable sort of their contributions puts first", () => {
    const next = seededRandom(7);
    const vocabulary = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const builder = new Bm25Builder();
    const docs = new Map<number, Map<string, number>>();
    for (let id = 1; id <= 300; id++) {
      const tf = new Map<string, number>();
      for (let k = 0; k < 1 + Math.floor(next() * 30); k++) {
        const term = vocabulary[Math.floor(next() * vocabulary.length)]!;
        tf.set(term, 1 + Math.floor(next() * 3));
      }
      docs.set(id, tf);
      // Every document the same length: equal frequencies of equally weighted terms tie exactly.
      builder.add(id, { terms: [...tf.keys()], tfs: [...tf.values()], length: 50 });
    }
    const stats = builder.freeze();
    // Repeated weights make ties; every term of the vocabulary is asked.
    const task = new Map(vocabulary.map((t, i) => [t, 1 + (i % 3)] as const));
    const matches = scoreBm25(stats, task, { k1: 1.2, b: 0.75 });
    expect(matches.size).toBe(300);
    let tied = 0;
    for (const [id, match] of matches) {
      // The reference: every term's contribution, in the order the terms were scored, stably sorted.
      const all: Array<[string, number]> = [];
      let score = 0;
      for (const [term, weight] of task) {
        const postings = stats.postings(term);
        const at = [...postings.ids].indexOf(id);
        if (at < 0) continue;
        const idf = Math.log(1 + (stats.docs - postings.ids.length + 0.5) / (postings.ids.length + 0.5));
        const tf = postings.tfs[at]!;
        const contribution = (weight * idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * 50) / stats.avgLength));
        score += contribution;
        all.push([term, contribution]);
      }
      const expected = [...all].sort((a, b) => b[1] - a[1]).slice(0, 4);
      if (all.some((e, i) => all.some((f, j) => i !== j && e[1] === f[1]))) tied++;
      expect(match.score).toBe(score);
      expect(topTerms(match)).toBe(expected.map(([t]) => t).join(", "));
    }
    expect(tied).toBeGreaterThan(10);
  });

  it("names the terms scored first among equal contributions, and a later larger one ahead of them", () => {
    const builder = new Bm25Builder();
    const terms = ["a", "b", "c", "d", "e", "f", "g"];
    builder.add(1, { terms, tfs: [1, 1, 1, 1, 1, 1, 3], length: 9 });
    builder.add(2, { terms, tfs: [1, 1, 1, 1, 1, 1, 3], length: 9 });
    builder.add(3, { terms: ["z"], tfs: [1], length: 9 });
    const stats = builder.freeze();
    const task = new Map(["f", "e", "d", "c", "b", "a", "g"].map((t) => [t, 1] as const));
    const match = scoreBm25(stats, task, { k1: 1.2, b: 0.75 }).get(1)!;
    expect(topTerms(match)).toBe("g, f, e, d");
  });
});
