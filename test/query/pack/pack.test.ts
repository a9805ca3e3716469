import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../../../src/engine.js";
import type { ContextResult } from "../../../src/query/types.js";
import type { TempRepo } from "../../helpers/repo.js";
import { SHOP_FILES } from "../../helpers/shop.js";
import { syntheticRepo } from "../../helpers/synthetic.js";

let repo: TempRepo;
let engine: Engine;

beforeAll(async () => {
  // Big enough that 50,000 tokens do not hold all of it.
  repo = syntheticRepo(150, { git: false });
  repo.write(SHOP_FILES);
  // A module-level table between functions, in a file too big to show whole.
  const filler = Array.from({ length: 30 }, (_, i) => `def helper_${i}(x):\n    return x + ${i}\n`).join("\n");
  repo.write({ "printing/ccode.py": `${filler}\nknown_functions = {\n    "Abs": "fabs",\n    "gamma": "tgamma",\n    "sinc": None,\n}\n\n\ndef ccode(expr):\n    return str(expr)\n` });
  engine = new Engine(repo.root, { jobs: 2, git: false });
  await engine.index();
}, 60_000);
afterAll(async () => {
  await engine.close();
  repo.dispose();
});

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["service", "handler", "compute", "step", "value", "helper", "module", "finish", "cart", "price", "card", "retry", "declined", "quantity", "Service12", "method_3", "the", "why", "input", "shared", "`compute_7`", "app/pkg3/service_3.py"];

/** The code lines of a rendered context: (path, line number, text) per shown line. */
function shownLines(text: string): Array<{ path: string; line: number; code: string }> {
  const out: Array<{ path: string; line: number; code: string }> = [];
  let path: string | null = null;
  let inCode = false;
  for (const row of text.split("\n")) {
    const header = /^### (\S+) · lines /.exec(row);
    if (header) path = header[1]!;
    else if (row.startsWith("```")) inCode = !inCode && row.length > 3;
    else if (inCode && row !== "⋮") {
      const m = /^(\d+)\|(.*)$/.exec(row);
      if (!m || !path) throw new Error(`unexpected line in a code block: ${row}`);
      out.push({ path, line: Number(m[1]), code: m[2]! });
    }
  }
  return out;
}

/** Every invariant of a packed context. */
async function checkContext(result: ContextResult, budget: number): Promise<void> {
  expect(result.budget).toBe(budget);
  expect(result.tokens).toBeLessThanOrEqual(budget);
  // The reported count is the exact count of the text.
  expect(await engine.countTokens(result.text)).toBe(result.tokens);

  const lines = shownLines(result.text);
  const keys = lines.map((l) => `${l.path}:${l.line}`);
  expect(new Set(keys).size).toBe(keys.length); // no line shown twice
  // Each shown line is the file's line with that number.
  const files = new Map<string, string[]>();
  for (const l of lines) {
    if (!files.has(l.path)) files.set(l.path, readFileSync(join(repo.root, l.path), "utf8").split(/\r?\n/));
    expect(l.code).toBe(files.get(l.path)![l.line - 1]);
  }
  // Spans are exactly the shown lines, in the order shown.
  const fromSpans = result.spans.flatMap((s) => Array.from({ length: s.end - s.start + 1 }, (_, i) => `${s.path}:${s.start + i}`));
  expect(fromSpans).toEqual(keys);
  expect([...new Set(lines.map((l) => l.path))]).toEqual(result.files);
}

describe("packing", () => {
  it("never goes over budget, and its spans are exactly the lines of its text (random tasks, budgets 50 to 50,000)", async () => {
    const next = random(20261130);
    for (let i = 0; i < 30; i++) {
      const words = Array.from({ length: 1 + Math.floor(next() * 8) }, () => WORDS[Math.floor(next() * WORDS.length)]!);
      // Log-uniform: as many small budgets as large ones.
      const budget = Math.round(50 * Math.pow(1000, next()));
      // Alternately the defaults and a configuration that reaches far down the ranking.
      const ranking = i % 2 === 0 ? undefined : { pack: { maxFiles: 40 } };
      const result = await engine.context(words.join(" "), { budget, refresh: false, ranking });
      await checkContext(result, budget);
      if (ranking && budget >= 2000) expect(result.tokens).toBeGreaterThan(budget * 0.7); // plenty of code to fill it
    }
  }, 120_000);

  it("shows outlines before bodies when the budget is tight", async () => {
    const tight = await engine.context("total price of the cart items", { budget: 90, refresh: false });
    await checkContext(tight, 90);
    expect(tight.spans.length).toBeGreaterThan(0);
    expect(tight.spans.every((s) => s.kind === "file-outline" || s.kind === "class-outline" || s.kind === "file")).toBe(true);
    const roomy = await engine.context("total price of the cart items", { budget: 3000, refresh: false });
    await checkContext(roomy, 3000);
    expect(roomy.spans.some((s) => s.path === "shop/pricing.py" && (s.kind === "body" || s.kind === "file"))).toBe(true);
  });

  it("packs the function whose body matches the task, not only the top of the file", async () => {
    // service_13.py is ~70 lines; method_9 is near its end.
    // Files up to 20 lines are shown whole; service_13.py is ~70.
    const result = await engine.context("Service13 method_9 calls compute_100", { budget: 400, refresh: false, ranking: { pack: { wholeFileLines: 20 } } });
    await checkContext(result, 400);
    expect(result.spans).toContainEqual(expect.objectContaining({ path: "app/pkg13/service_13.py", kind: "body", symbol: "Service13.method_9" }));
  });

  it("packs code between definitions (a module-level table) when the task points at it", async () => {
    const result = await engine.context("ccode known_functions table lacks sinc and tgamma", { budget: 300, refresh: false, ranking: { pack: { wholeFileLines: 20 } } });
    await checkContext(result, 300);
    const table = result.spans.find((s) => s.kind === "code" && s.path === "printing/ccode.py");
    expect(table).toBeDefined();
    expect(table!.start).toBeLessThanOrEqual(91);
    expect(table!.end).toBeGreaterThanOrEqual(95);
  });

  it("packs the piece holding a traceback frame's line, whatever its words", async () => {
    const task = 'Crash\nTraceback (most recent call last):\n  File "/srv/app/app/pkg13/service_13.py", line 20, in run\nZeroDivisionError';
    const result = await engine.context(task, { budget: 200, refresh: false, ranking: { pack: { wholeFileLines: 20 } } });
    await checkContext(result, 200);
    expect(result.spans).toContainEqual(expect.objectContaining({ path: "app/pkg13/service_13.py", kind: "body", symbol: "Service13.method_2" }));
  });

  it("shows a small file whole", async () => {
    const result = await engine.context("apply_discount percent", { budget: 400, refresh: false });
    expect(result.spans[0]).toMatchObject({ path: "shop/pricing.py", kind: "file", start: 1, end: 9 });
  });

  it("renders a header per file with its line ranges and why it was chosen", async () => {
    const { text } = await engine.context("`charge_card` declined", { budget: 1500, refresh: false });
    expect(text).toMatch(/^### shop\/payments\/card\.py · lines [\d, -]+ · #1 \(.*references #1.*\)\n```python\n/);
  });

  it("returns an empty context when the budget holds no code at all", async () => {
    const result = await engine.context("retry policy", { budget: 1, refresh: false });
    expect(result).toMatchObject({ text: "", tokens: 0, files: [], spans: [] });
  });
});
