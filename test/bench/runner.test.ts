import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadDataset } from "../../src/bench/dataset.js";
import { readRecords, runBench } from "../../src/bench/runner.js";
import { pickStrategies } from "../../src/bench/strategies.js";
import { summarize } from "../../src/bench/summary.js";
import type { TempRepo } from "../helpers/repo.js";
import { shopRepo } from "../helpers/shop.js";

const PATCH = [
  "diff --git a/shop/pricing.py b/shop/pricing.py",
  "--- a/shop/pricing.py",
  "+++ b/shop/pricing.py",
  "@@ -4,3 +4,3 @@ def total_price(items):",
  "     for item, quantity in items:",
  "-        total += item.unit_price * quantity",
  "+        total += item.unit_price * int(quantity)",
  "     return total",
].join("\n");

function pick(...names: string[]) {
  const strategies = pickStrategies(names);
  if (typeof strategies === "string") throw new Error(strategies);
  return strategies;
}

describe("runBench", () => {
  let source: TempRepo | undefined;
  let dir: string | undefined;
  afterEach(() => {
    source?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function setup() {
    source = shopRepo();
    const base = source.git("rev-parse", "HEAD").trim();
    // A later commit (the fix): it must not leak into the benchmark's view of the repository.
    source.write({ "shop/pricing.py": "# fixed\n" });
    source.commitAll("Fix quantity typed as a string");
    dir = mkdtempSync(join(tmpdir(), "ctxsmith-bench-"));
    cpSync(join(source.root, ".git"), join(dir, "mirrors", "acme+shop", "repo"), { recursive: true });
    const dataset = join(dir, "data.jsonl");
    const instance = (id: string, statement: string) =>
      JSON.stringify({ instance_id: id, repo: "acme/shop", base_commit: base, problem_statement: statement, patch: PATCH, created_at: "2024-01-01" });
    writeFileSync(dataset, `${instance("shop-1", "TypeError: can't multiply sequence by non-int in total_price when quantity is a string")}\n${instance("shop-2", "the cart total is wrong for quantities given as text")}\n`);
    return { dataset, mirrors: join(dir, "mirrors"), cache: join(dir, "cache"), out: join(dir, "out") };
  }

  it("scores every strategy on every instance, never over budget, at the base commit", async () => {
    const { dataset, mirrors, cache, out } = setup();
    const records = await runBench({
      instances: loadDataset(dataset),
      strategies: pick("default", "bm25-whole-files", "no-references"),
      budgets: [300, 2000],
      source: { mirrors, network: false },
      cacheDir: cache,
      outDir: out,
      jobs: 1,
      parseJobs: 1,
      resume: false,
    });
    expect(records).toHaveLength(2);
    const first = records.find((r) => r.instance_id === "shop-1")!;
    expect(first.error).toBeUndefined();
    expect(first.gold).toEqual([{ path: "shop/pricing.py", lines: 1 }]);
    const d = first.strategies.default!;
    expect(d.ranks["shop/pricing.py"]).toBe(1);
    expect(d.recall).toEqual({ "1": true, "3": true, "5": true, "10": true });
    expect(d.budgets["2000"]).toMatchObject({ file: true, lines: true, overBudget: false });
    for (const r of records) for (const o of Object.values(r.strategies)) for (const b of Object.values(o.budgets)) expect(b.overBudget).toBe(false);
    // The signal cache for the tuner.
    const cached = JSON.parse(readFileSync(join(out, "signals", "shop-1.json"), "utf8")) as { gold: string[]; results: Array<{ name: string }> };
    expect(cached.gold).toEqual(["shop/pricing.py"]);
    expect(cached.results.map((r) => r.name)).toEqual(expect.arrayContaining(["lexical", "symbols", "references", "history", "exactName", "cochange", "callgraph"]));
    // The file as it was at the base commit, not the later fix.
    expect(readFileSync(join(cache, "repos", "acme+shop", "shop", "pricing.py"), "utf8")).toContain("def total_price");
  }, 60_000);

  it("resumes: instances already recorded are kept, not run again", async () => {
    const { dataset, mirrors, cache, out } = setup();
    const options = { strategies: pick("default"), budgets: [500], source: { mirrors, network: false }, cacheDir: cache, outDir: out, jobs: 1, parseJobs: 1 };
    await runBench({ ...options, instances: loadDataset(dataset).slice(0, 1), resume: false });
    const seen: string[] = [];
    const records = await runBench({ ...options, instances: loadDataset(dataset), resume: true, onProgress: (e) => e.stage === "instance" && seen.push(e.id) });
    expect(seen).toEqual(["shop-2"]);
    expect(records.map((r) => r.instance_id).sort()).toEqual(["shop-1", "shop-2"]);
    expect(readRecords(join(out, "instances.jsonl"))).toHaveLength(2);
    const summary = summarize(records, ["default"], [500]);
    expect(summary).toContain("| strategy | n | R@1 | R@3 | R@5 | R@10 | file@500 | lines@500 | ms | over |");
    expect(summary).toMatch(/\| default \| 2 \| [\d.]+ \|/);
    // No model could be loaded (offline, none cached): the summary says so instead of showing rows that measure nothing.
    expect(records[0]!.semantic).toMatchObject({ model: null, notice: expect.any(String) });
    expect(summary).toMatch(/Semantic signal: off in every instance \(.+\); the no-semantic and embeddings-only rows are left out/);
    expect(summarize(records, ["default", "no-semantic"], [500])).not.toMatch(/\| no-semantic \|/);
    // With a model's vectors, they are shown, and the model named.
    const withModel = records.map((r) => ({ ...r, semantic: { model: "local some/model", notice: null }, strategies: { ...r.strategies, "no-semantic": r.strategies.default! } }));
    const shown = summarize(withModel, ["default", "no-semantic"], [500]);
    expect(shown).toContain("Semantic signal: local some/model in 2 of 2 instances.");
    expect(shown).toMatch(/\| no-semantic \| 2 \|/);
  }, 60_000);

  it("records an instance it cannot materialise as failed and goes on", async () => {
    const { dataset, mirrors, cache, out } = setup();
    const instances = loadDataset(dataset).map((i, n) => (n === 0 ? { ...i, base_commit: "0".repeat(40) } : i));
    const records = await runBench({ instances, strategies: pick("default"), budgets: [500], source: { mirrors, network: false }, cacheDir: cache, outDir: out, jobs: 1, parseJobs: 1, resume: false });
    expect(records.find((r) => r.instance_id === "shop-1")!.error).toMatch(/git/);
    expect(records.find((r) => r.instance_id === "shop-2")!.strategies.default).toBeDefined();
  }, 60_000);
});
