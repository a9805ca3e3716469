import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tinyModel } from "../runtime/embed/models.js";
import { runCli } from "../helpers/cli.js";
import type { TempRepo } from "../helpers/repo.js";
import { shopRepo } from "../helpers/shop.js";

describe("semantic search from the CLI (generated models)", () => {
  let repo: TempRepo;
  let model: string;
  let other: string;
  let cross: string;
  let cacheDir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    repo = shopRepo();
    model = tinyModel();
    other = tinyModel({ seed: 42 });
    cross = tinyModel({ crossEncoder: true });
    cacheDir = mkdtempSync(join(tmpdir(), "ctxsmith-cache-"));
    env = { CTXSMITH_EMBED_MODEL: model, CTXSMITH_RERANK_MODEL: cross, CTXSMITH_CACHE_DIR: cacheDir };
  });
  afterAll(() => {
    repo.dispose();
    for (const dir of [model, other, cross, cacheDir]) rmSync(dir, { recursive: true, force: true });
  });

  it("index embeds the summaries and says so; --json carries the semantic stats", () => {
    const r = runCli(["index", repo.root], { env });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`semantic +\\d+ vectors \\(local ${model.replace(/[/\\\\.]/g, "\\$&")}\\) · \\d+ embedded, 0 from the cache`));
    const again = JSON.parse(runCli(["index", repo.root, "--json"], { env }).stdout) as { semantic: Record<string, unknown> };
    expect(again.semantic).toMatchObject({ on: true, embedded: 0, reason: null });
  });

  it("rank shows the semantic signal's evidence; context --rerank stays within the budget", () => {
    const ranked = JSON.parse(runCli(["rank", "charge the declined card again", "--path", repo.root, "--json"], { env }).stdout) as { files: Array<{ signals: Record<string, { evidence: string }> }>; notices: string[] };
    expect(ranked.notices).toEqual([]);
    expect(ranked.files.some((f) => /^≈ /.test(f.signals.semantic?.evidence ?? ""))).toBe(true);
    // How much of its weight the semantic signal had for this task (the gate over its agreement with the others).
    const share = (ranked as unknown as { semanticShare: number }).semanticShare;
    expect(share).toBeGreaterThanOrEqual(0);
    expect(share).toBeLessThanOrEqual(1);
    const lexicalOnly = JSON.parse(runCli(["rank", "charge the declined card again", "--path", repo.root, "--json"], { env: { ...env, CTXSMITH_EMBED_PROVIDER: "none" } }).stdout) as Record<string, unknown>;
    expect(lexicalOnly).not.toHaveProperty("semanticShare");
    const r = runCli(["context", "charge the declined card again", "--path", repo.root, "--budget", "500", "--rerank", "--json"], { env });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { tokens: number; files: string[]; notices: string[] };
    expect(out.tokens).toBeLessThanOrEqual(500);
    expect(out.files.length).toBeGreaterThan(0);
    expect(out.notices).toEqual([]);
  });

  it("a query with another model configured skips the semantic signal and says so on stderr", () => {
    const r = runCli(["rank", "charge the card", "--path", repo.root, "--no-refresh"], { env: { ...env, CTXSMITH_EMBED_MODEL: other } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^note: semantic signal skipped: the index's vectors are from local .* run `ctxsmith index` to rebuild them/m);
    expect(r.stdout).not.toMatch(/semantic #/);
  });

  it("--rerank without its model still answers, with a note", () => {
    const r = runCli(["context", "charge the card", "--path", repo.root, "--rerank"], { env: { ...env, CTXSMITH_RERANK_MODEL: "no-org/no-model" } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/note: re-ranking skipped: The model no-org\/no-model is not in the cache/);
    expect(r.stdout).toMatch(/shop\//);
  });
});
