import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { TempRepo } from "../helpers/repo.js";
import { shopRepo } from "../helpers/shop.js";

let repo: TempRepo;

beforeAll(() => {
  repo = shopRepo();
  // The first query builds the index itself.
});
afterAll(() => repo.dispose());

const TRACEBACK = 'Traceback (most recent call last):\n  File "/srv/app/shop/pricing.py", line 5, in total_price\nTypeError: unsupported operand';

describe("ctxsmith context / rank / search", () => {
  it("context --json keeps the contract: text, tokens, budget, files, spans matching the text", () => {
    const r = runCli(["context", TRACEBACK, "--budget", "600", "--json", "--path", repo.root]);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { text: string; tokens: number; budget: number; files: string[]; spans: Array<Record<string, unknown>>; notes: unknown[]; notices: string[] };
    expect(Object.keys(out).sort()).toEqual(["budget", "files", "notes", "notices", "spans", "text", "tokens"]);
    expect(out.notes).toEqual([]);
    expect(out.notices).toEqual([]);
    expect(out.budget).toBe(600);
    expect(out.tokens).toBeGreaterThan(0);
    expect(out.tokens).toBeLessThanOrEqual(600);
    expect(out.files[0]).toBe("shop/pricing.py");
    for (const span of out.spans) {
      expect(Object.keys(span).sort()).toEqual(["end", "kind", "path", "start", "symbol"]);
      expect(out.text).toContain(`${span.start as number}|`);
    }
    expect(out.spans[0]).toMatchObject({ path: "shop/pricing.py", start: 1 });
  });

  it("context prints markdown on stdout and a summary on stderr", () => {
    const r = runCli(["context", "retry policy for declined cards", "-b", "500"], { cwd: repo.root });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^### shop\/payments\/retry\.py · lines /);
    expect(r.stdout).toContain("```python\n");
    expect(r.stderr).toMatch(/of 500 tokens · \d+ files/);
  });

  it("rank --json lists files best first with each signal's rank and score", () => {
    const r = runCli(["rank", "--task-file", "-", "--json", "--limit", "3", "--path", repo.root], { input: TRACEBACK });
    expect(r.status).toBe(0);
    const { files } = JSON.parse(r.stdout) as { files: Array<{ path: string; score: number; signals: Record<string, { rank: number; score: number }> }> };
    expect(files.length).toBeLessThanOrEqual(3);
    expect(files[0]!.path).toBe("shop/pricing.py");
    expect(files[0]!.signals.references).toMatchObject({ rank: 1, score: expect.any(Number) });
    expect(files.every((f, i) => i === 0 || f.score <= files[i - 1]!.score)).toBe(true);
  });

  it("reads a long task from a file without shell quoting", () => {
    const file = join(repo.root, "..", `task-${process.pid}.txt`);
    writeFileSync(file, `Invoice $(rm -rf /) "total price" is 'wrong'\n${"and again ".repeat(500)}`);
    const r = runCli(["rank", "--task-file", file, "--json"], { cwd: repo.root });
    rmSync(file);
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { files: Array<{ path: string }> }).files[0]!.path).toBe("shop/pricing.py");
  });

  it("search --json returns functions and classes with file, line and signature", () => {
    const r = runCli(["search", "RetryPolicy next delay", "--json", "--path", repo.root]);
    expect(r.status).toBe(0);
    const { results } = JSON.parse(r.stdout) as { results: Array<Record<string, unknown>> };
    expect(results[0]).toMatchObject({ path: "shop/payments/retry.py", qualifiedName: "RetryPolicy.next_delay", line: 9, kind: "method" });
    const text = runCli(["search", "RetryPolicy", "--path", repo.root]);
    expect(text.stdout).toContain("shop/payments/retry.py:3  class RetryPolicy\n    class RetryPolicy");
  });

  it("fails clearly on bad input", () => {
    const empty = runCli(["context", "   ", "--path", repo.root]);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain("The task is empty");
    const missing = runCli(["rank", "--task-file", "/no/such/file.txt", "--path", repo.root, "--json"]);
    expect(missing.status).toBe(1);
    expect(JSON.parse(missing.stdout)).toEqual({ error: { code: "PATH_NOT_FOUND", message: expect.stringContaining("/no/such/file.txt") } });
    const budget = runCli(["context", "cart", "--budget", "0", "--path", repo.root]);
    expect(budget.status).toBe(2);
    expect(budget.stderr).toContain("budget must be a positive whole number");
    // yargs alone read 0x10 as 16 and 1e3 as 1000.
    for (const [option, value] of [["--budget", "0x10"], ["--budget", "1e3"], ["--limit", "2.5"], ["--depth", "-1"]] as const) {
      const command = option === "--limit" ? ["rank", "cart"] : option === "--depth" ? ["impact", "total"] : ["context", "cart"];
      const r = runCli([...command, `${option}=${value}`, "--path", repo.root]);
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(`ctxsmith: ${option} must be a positive whole number, not "${value}".\n`);
    }
    const noRepo = runCli(["rank", "cart", "--path", "/no/such/repo"]);
    expect(noRepo.status).toBe(1);
    expect(noRepo.stderr).toContain("No such directory");
  });
});

describe("ctxsmith rank: the release notes a fix adds to", () => {
  let notes: TempRepo;
  beforeAll(() => {
    notes = TempRepo.create({ "shop/cart.py": "def total(items):\n    return sum(items)\n", "CHANGELOG.md": "# Changelog\n" }, { git: true });
    for (let i = 1; i <= 19; i++) {
      notes.write({ "shop/cart.py": `def total(items):\n    return sum(items) + ${i}\n`, ...(i % 2 === 0 ? { "CHANGELOG.md": `# Changelog\n\n- fix ${i}\n` } : {}) });
      notes.commitAll(`Update ${i}`);
    }
  });
  afterAll(() => notes.dispose());

  it("lists them with why, in text and as releaseNotes in --json", () => {
    const json = runCli(["rank", "cart total is wrong", "--json", "--path", notes.root]);
    expect(json.status).toBe(0);
    const { files } = JSON.parse(json.stdout) as { files: Array<{ path: string; releaseNotes?: string }> };
    expect(files[0]!.path).toBe("shop/cart.py");
    expect(files[0]!.releaseNotes).toBeUndefined();
    expect(files.find((f) => f.path === "CHANGELOG.md")?.releaseNotes).toBe("release notes: 50% of the newest 20 commits add to them");
    const text = runCli(["rank", "cart total is wrong", "--path", notes.root]);
    expect(text.stdout).toMatch(/\d\. \d\.\d{4} {2}CHANGELOG\.md\n {13}release notes: 50% of the newest 20 commits add to them\n/);
  });
});
