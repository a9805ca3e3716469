import { describe, expect, it } from "vitest";
import { pageRank } from "../../src/graph/pagerank.js";

const edge = (...to: string[]) => ({ to, weight: to.map(() => 1) });

describe("pageRank", () => {
  it("ranks the file everything points at first, then by what points at it", () => {
    // a, b and c all import core; core imports util; d is imported by nobody.
    const ranks = pageRank(new Map([["a", edge("core")], ["b", edge("core")], ["c", edge("core", "a")], ["core", edge("util")], ["d", edge("a")]]));
    const order = [...ranks].sort((x, y) => y[1] - x[1]).map(([name]) => name);
    expect(order.slice(0, 3)).toEqual(["util", "core", "a"]);
    expect(ranks.get("d")).toBeLessThan(ranks.get("a")!);
    const total = [...ranks.values()].reduce((s, v) => s + v, 0);
    expect(total).toBeCloseTo(1, 6);
  });

  it("follows the weights of the links", () => {
    const ranks = pageRank(new Map([["a", { to: ["heavy", "light"], weight: [9, 1] }]]));
    expect(ranks.get("heavy")!).toBeGreaterThan(ranks.get("light")!);
  });

  it("gives the same scores whatever the insertion order", () => {
    const one = pageRank(new Map([["a", edge("b")], ["b", edge("c")], ["c", edge("a", "b")]]));
    const two = pageRank(new Map([["c", edge("b", "a")], ["b", edge("c")], ["a", edge("b")]]));
    for (const [name, score] of one) expect(two.get(name)).toBeCloseTo(score, 12);
  });

  it("is empty for an empty graph", () => {
    expect(pageRank(new Map()).size).toBe(0);
  });

  it("reads the graph once, as a stream, and past many growths of its edge list", () => {
    // 3,000 nodes in a ring with chords: more edges than the first edge arrays hold.
    const n = 3000;
    const links = Array.from({ length: n }, (_, i) => [`f${i}`, { to: [`f${(i + 1) % n}`, `f${(i * 7) % n}`, `f${i}`], weight: [1, 2, 5] }] as const);
    let reads = 0;
    function* stream() {
      reads++;
      yield* links;
    }
    const streamed = pageRank(stream());
    expect(reads).toBe(1);
    expect(streamed).toEqual(pageRank(new Map(links)));
    expect([...streamed.values()].reduce((s, v) => s + v, 0)).toBeCloseTo(1, 6);
    expect(streamed.size).toBe(n);
  });
});
