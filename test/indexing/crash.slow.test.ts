import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProgressEvent } from "../../src/core/types.js";
import { runCli, startCli } from "../helpers/cli.js";
import { dumpIndex } from "../helpers/dump.js";
import { cleanIndexDump } from "../helpers/index.js";
import { TempRepo } from "../helpers/repo.js";
import { syntheticRepo } from "../helpers/synthetic.js";

type KillPoint = { name: string; when: (e: ProgressEvent) => boolean };

/** Starts `ctxsmith index`, kills it with SIGKILL at the first event matching `when`. */
async function killDuring(root: string, when: (e: ProgressEvent) => boolean): Promise<boolean> {
  let killed = false;
  const { done } = startCli(["index", root, "--progress", "json", "--jobs", "2"], (line, child) => {
    if (killed || !line.startsWith("{")) return;
    if (when(JSON.parse(line) as ProgressEvent)) {
      killed = true;
      child.kill("SIGKILL");
    }
  });
  const result = await done;
  if (!killed) expect(result.status).toBe(0);
  return killed;
}

describe("crash safety: kill -9 during indexing", () => {
  let repo: TempRepo;
  let clean: unknown;

  beforeAll(async () => {
    repo = syntheticRepo(900);
    clean = await cleanIndexDump(repo.root);
  });
  afterAll(() => repo.dispose());

  const points: KillPoint[] = [
    { name: "right after planning, before any commit", when: (e) => e.stage === "plan" },
    { name: "after the first committed batch", when: (e) => e.stage === "parse" },
    { name: "half-way through parsing", when: (e) => e.stage === "parse" && e.done >= e.total / 2 },
    { name: "while the lexical snapshot is written", when: (e) => e.stage === "lexical" },
  ];

  for (const point of points) {
    it(`recovers when killed ${point.name}`, async () => {
      rmSync(join(repo.root, ".contextsmith"), { recursive: true, force: true });
      expect(await killDuring(repo.root, point.when)).toBe(true);
      const rerun = runCli(["index", repo.root, "--json", "--jobs", "2"]);
      expect(rerun.status, rerun.stderr).toBe(0);
      expect(await dumpIndex(join(repo.root, ".contextsmith")), `the rerun said: ${rerun.stdout}`).toEqual(clean);
    });
  }

  // Inside each stage's write transaction, before it commits: CTXSMITH_FAULT=kill:<point>:<n>
  // (src/core/fault.ts) kills the process there, deterministically.
  for (const [point, nth] of [["parse-commit", 3], ["lexical-write", 1], ["graph-expand", 1], ["graph-chunk", 1], ["graph-finish", 1], ["history", 1]] as const) {
    it(`recovers when killed inside the ${point} transaction`, async () => {
      rmSync(join(repo.root, ".contextsmith"), { recursive: true, force: true });
      const killed = runCli(["index", repo.root, "--jobs", "2"], { env: { CTXSMITH_FAULT: `kill:${point}:${nth}` } });
      expect(killed.status, `not killed at ${point}: ${killed.stderr}`).toBeNull();
      const rerun = runCli(["index", repo.root, "--json", "--jobs", "2"]);
      expect(rerun.status, rerun.stderr).toBe(0);
      expect(await dumpIndex(join(repo.root, ".contextsmith")), `the rerun said: ${rerun.stdout}`).toEqual(clean);
    });
  }

  // A lexical snapshot in segments (a few thousand rows each here), killed while staging the
  // second: the rerun, in segments too, answers as the clean index's one segment does.
  it("recovers when killed while a segment of the lexical snapshot is staged", async () => {
    rmSync(join(repo.root, ".contextsmith"), { recursive: true, force: true });
    const small = { CTXSMITH_LEXICAL_SEGMENT_ROWS: "3000" };
    const killed = runCli(["index", repo.root, "--jobs", "2"], { env: { ...small, CTXSMITH_FAULT: "kill:lexical-segment:2" } });
    expect(killed.status, `not killed while staging: ${killed.stderr}`).toBeNull();
    const rerun = runCli(["index", repo.root, "--json", "--jobs", "2"], { env: small });
    expect(rerun.status, rerun.stderr).toBe(0);
    expect(await dumpIndex(join(repo.root, ".contextsmith")), `the rerun said: ${rerun.stdout}`).toEqual(clean);
  });

  it("compares every table: none of them is empty in the clean index", () => {
    const { tables } = clean as { tables: Record<string, string[]> };
    for (const name of ["parsed", "symbols", "terms", "stats", "graph", "defs", "refs", "defined", "links", "graph-meta", "history", "commits"]) {
      expect(tables[name]?.length, name).toBeGreaterThan(0);
    }
  });

  it("recovers from several kills in a row at different points", async () => {
    rmSync(join(repo.root, ".contextsmith"), { recursive: true, force: true });
    expect(await killDuring(repo.root, (e) => e.stage === "parse" && e.done >= e.total / 4)).toBe(true);
    // The second run resumes: it only has the rest to parse, and is killed part-way again.
    let resumedTotal = 0;
    expect(
      await killDuring(repo.root, (e) => {
        if (e.stage === "plan") resumedTotal = e.toRead;
        return e.stage === "parse";
      }),
    ).toBe(true);
    expect(resumedTotal).toBeGreaterThan(0);
    expect(resumedTotal).toBeLessThan(900);
    const rerun = runCli(["index", repo.root, "--json"]);
    expect(rerun.status, rerun.stderr).toBe(0);
    expect(await dumpIndex(join(repo.root, ".contextsmith")), `the rerun said: ${rerun.stdout}`).toEqual(clean);
  });

  it("forgets the definitions of a file deleted after a run killed before its graph was resolved", async () => {
    const small = TempRepo.create({ "a.py": "def gone():\n    return 1\n", "b.py": "def kept():\n    return 2\n" });
    try {
      const killed = runCli(["index", small.root, "--no-git"], { env: { CTXSMITH_FAULT: "kill:graph-chunk:1" } });
      expect(killed.status).toBeNull();
      small.remove("a.py");
      expect(runCli(["index", small.root, "--no-git", "--quiet"]).status).toBe(0);
      const symbol = runCli(["symbol", "gone", "--path", small.root, "--json", "--no-refresh"]);
      // It said "Did you mean: gone?": the definition outlived its file.
      expect(JSON.parse(symbol.stdout)).toEqual({ error: { code: "NOT_FOUND", message: "No definition of gone in the index.", data: { suggestions: [] } } });
      // The graph is as a clean build's (the lexical and vector journals legitimately still list the deletion).
      const graphOf = (dump: unknown): unknown => {
        const { tables } = dump as { tables: Record<string, string[]> };
        return ["graph", "defs", "defined", "refs", "dependents", "links", "graph-meta", "graph-journal"].map((t) => tables[t]);
      };
      expect(graphOf(await dumpIndex(join(small.root, ".contextsmith")))).toEqual(graphOf(await cleanIndexDump(small.root)));
    } finally {
      small.dispose();
    }
  });
});

describe("crash safety: a first graph build's definitions, in chunks", () => {
  it("recovers when killed between two chunks of a first build's definitions", async () => {
    // More files than one chunk (1,024): the first build registers definitions in two transactions.
    const repo = syntheticRepo(1100);
    try {
      const clean = await cleanIndexDump(repo.root);
      const killed = runCli(["index", repo.root, "--no-git"], { env: { CTXSMITH_FAULT: "kill:graph-expand:2" } });
      expect(killed.status, `not killed in the second chunk: ${killed.stderr}`).toBeNull();
      // The first chunk's names are registered: the rerun takes the incremental path and ends the same.
      const rerun = runCli(["index", repo.root, "--json"]);
      expect(rerun.status, rerun.stderr).toBe(0);
      expect(await dumpIndex(join(repo.root, ".contextsmith")), `the rerun said: ${rerun.stdout}`).toEqual(clean);
    } finally {
      repo.dispose();
    }
  });
});
