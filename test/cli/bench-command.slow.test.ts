import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import type { TempRepo } from "../helpers/repo.js";
import { shopRepo } from "../helpers/shop.js";

let source: TempRepo;
let dir: string;
let dataset: string;

beforeAll(() => {
  source = shopRepo();
  const base = source.git("rev-parse", "HEAD").trim();
  dir = mkdtempSync(join(tmpdir(), "ctxsmith-bench-cli-"));
  cpSync(join(source.root, ".git"), join(dir, "mirrors", "acme+shop"), { recursive: true });
  const patch = "diff --git a/shop/cart.py b/shop/cart.py\n--- a/shop/cart.py\n+++ b/shop/cart.py\n@@ -7,2 +7,2 @@\n     def add_item(self, item, quantity):\n-        self.items.append((item, quantity))\n+        self.items.append((item, int(quantity)))\n";
  dataset = join(dir, "data.jsonl");
  writeFileSync(dataset, `${JSON.stringify({ instance_id: "shop-1", repo: "acme/shop", base_commit: base, problem_statement: "Cart.add_item keeps quantity as a string", patch })}\n`);
});
afterAll(() => {
  source.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe("ctxsmith bench", () => {
  it("runs the benchmark from local mirrors and writes summary.md, instances.jsonl and the caches", () => {
    const out = join(dir, "out");
    const r = runCli(["bench", "--dataset", dataset, "--mirrors", join(dir, "mirrors"), "--no-network", "--budgets", "500,1000", "--strategies", "default,bm25-whole-files", "--out", out, "--cache", join(dir, "cache"), "--parse-jobs", "1"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("[1/1] shop-1  R@5 hit");
    const summary = readFileSync(join(out, "summary.md"), "utf8");
    expect(summary).toContain("| strategy | n | R@1 | R@3 | R@5 | R@10 | file@500 | file@1k | lines@500 | lines@1k | ms | over |");
    expect(summary).toMatch(/\| default \| 1 \| 100\.0 \| 100\.0 \| 100\.0 \| 100\.0 \|/);
    expect(summary).toContain("| bm25-whole-files | 1 |");
    expect(existsSync(join(out, "signals", "shop-1.json"))).toBe(true);
    expect(existsSync(join(out, "packs", "shop-1.json.gz"))).toBe(true);
    const record = JSON.parse(readFileSync(join(out, "instances.jsonl"), "utf8").trim()) as { strategies: Record<string, { ranks: Record<string, number> }> };
    expect(record.strategies.default!.ranks["shop/cart.py"]).toBe(1);
  });

  it("rejects unknown strategies, bad budgets and bad ranking overrides with a usage error", () => {
    const unknown = runCli(["bench", "--dataset", dataset, "--strategies", "default,best-ever"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Unknown strategy best-ever");
    const budgets = runCli(["bench", "--dataset", dataset, "--budgets", "4000,lots"]);
    expect(budgets.status).toBe(2);
    const ranking = runCli(["bench", "--dataset", dataset, "--ranking", "{not json"]);
    expect(ranking.status).toBe(2);
    expect(ranking.stderr).toContain("--ranking must be a JSON object");
    const misspelt = runCli(["bench", "--dataset", dataset, "--ranking", '{"pack":{"prosevalue":0}}']);
    expect(misspelt.status).toBe(2);
    expect(misspelt.stderr).toContain('Unknown ranking setting "pack.prosevalue"');
    const missing = runCli(["bench", "--dataset", join(dir, "nope.jsonl")]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("Cannot read the dataset");
  });
});
