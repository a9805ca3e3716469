import { describe, expect, it } from "vitest";
import { seededUnit, standInModel, summaryPath } from "../../bench/models/stand-in-embeddings.js";
import { symbolSummaries } from "../../src/indexing/embed-summary.js";

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const patch = (path: string) => `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n`;
const instances = [
  { instance_id: "shop-1", problem_statement: "Discounts are applied twice at checkout", patch: patch("shop/pricing.py") },
  { instance_id: "shop-2", problem_statement: "A declined card is charged again without waiting", patch: patch("shop/payments.py") },
];
const summary = (path: string, name: string) =>
  symbolSummaries(path, [{ name, qualifiedName: name, kind: "function", line: 1, endLine: 2, signature: `def ${name}():`, doc: "" } as never])[0]!.text;

describe("stand-in embedding models for measuring the fusion", () => {
  it("reads the path a summary names, as the summaries are written", () => {
    expect(summaryPath(summary("shop/pricing.py", "total_price"))).toBe("shop/pricing.py");
    expect(summaryPath("Discounts are applied twice")).toBeNull();
  });

  it("random: unit vectors, the same for the same text, unrelated across texts", () => {
    const embed = standInModel("random", instances, 256);
    const a = embed("charge card");
    expect(Math.hypot(...a)).toBeCloseTo(1, 6);
    expect(embed("charge card")).toEqual(a);
    expect(Math.abs(cosine(a, embed("cart total")))).toBeLessThan(0.3);
    expect(seededUnit("x", 5)).toHaveLength(5);
  });

  it("planted: each task's nearest summaries are those of the files its fix changes", () => {
    const embed = standInModel("planted", instances, 256);
    const task = embed(instances[1]!.problem_statement);
    const candidates = [summary("shop/payments.py", "charge"), summary("shop/pricing.py", "total_price"), summary("shop/cart.py", "add_item"), summary("shop/payments.py", "retry")];
    const scores = candidates.map((c) => cosine(task, embed(c)));
    expect(scores[0]).toBeGreaterThan(0.5);
    expect(scores[3]).toBeGreaterThan(0.5);
    expect(Math.max(scores[1]!, scores[2]!)).toBeLessThan(0.3);
  });
});
