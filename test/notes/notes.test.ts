import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import { ContextSmithError } from "../../src/core/errors.js";
import { TempRepo } from "../helpers/repo.js";
import { PYTHON } from "../graph/fixtures.js";

describe("notes", () => {
  let repo: TempRepo | undefined;
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    repo?.dispose();
  });

  async function setup(): Promise<Engine> {
    repo = TempRepo.create(PYTHON);
    engine = new Engine(repo.root, { jobs: 1, git: false });
    await engine.index();
    return engine;
  }

  it("round-trips: add to a symbol and a file, list, filter, remove", async () => {
    const e = await setup();
    const onSymbol = await e.addNote("retries must stay idempotent", { symbol: "charge_card" });
    expect(onSymbol.target).toEqual({ kind: "symbol", path: "shop/payments.py", name: "charge_card", qualifiedName: "charge_card" });
    expect(onSymbol.status).toBe("current");
    const onFile = await e.addNote("legacy module", { path: "shop/util.py" });
    expect((await e.notes()).map((n) => n.id).sort()).toEqual([onSymbol.id, onFile.id].sort());
    expect((await e.notes({ path: "shop/payments.py" })).map((n) => n.id)).toEqual([onSymbol.id]);
    expect((await e.notes({ symbol: "charge_card" })).map((n) => n.id)).toEqual([onSymbol.id]);
    e.removeNote(onSymbol.id);
    expect((await e.notes()).map((n) => n.id)).toEqual([onFile.id]);
    expect(() => e.removeNote(onSymbol.id)).toThrow(ContextSmithError);
  });

  it("refuses a note on an ambiguous or unknown symbol, a missing file, or nothing", async () => {
    const e = await setup();
    await expect(e.addNote("x", { symbol: "render" })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(e.addNote("x", { symbol: "charge_crd" })).rejects.toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("charge_card") });
    await expect(e.addNote("x", { path: "nope.py" })).rejects.toMatchObject({ code: "PATH_NOT_FOUND" });
    await expect(e.addNote("x", { path: "../outside.py" })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(e.addNote("x", {})).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(e.addNote("  ", { symbol: "charge_card" })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("marks a note stale when its code changes, not when other code in the file does", async () => {
    const e = await setup();
    const note = await e.addNote("amount is in cents", { symbol: "Gateway.send" });
    repo!.write({ "shop/payments.py": `# a comment above everything\n${PYTHON["shop/payments.py"]}` });
    const [moved] = await e.notes();
    expect(moved).toMatchObject({ id: note.id, status: "current", location: { startLine: 7 } });
    repo!.write({ "shop/payments.py": PYTHON["shop/payments.py"]!.replace("return with_retry(amount)", "return with_retry(amount * 100)") });
    expect((await e.notes())[0]?.status).toBe("changed");
  });

  it("reports a note whose symbol disappeared instead of dropping it", async () => {
    const e = await setup();
    await e.addNote("keep in sync with the billing service", { symbol: "log_event" });
    repo!.write({ "shop/util.py": "def retry(x):\n    return x\n" });
    const [note] = await e.notes();
    expect(note).toMatchObject({ status: "missing", location: null });
  });

  it("survives a full rebuild of the index", async () => {
    const e = await setup();
    const note = await e.addNote("do not call from request handlers", { symbol: "retry" });
    await e.close();
    rmSync(join(e.config.indexDir, "index.lmdb"));
    await e.index();
    expect((await e.notes()).map((n) => [n.id, n.status])).toEqual([[note.id, "current"]]);
  });

  it("shows the notes of the code a context shows, within the budget", async () => {
    const e = await setup();
    await e.addNote("NOTE-ON-SEND amounts are in cents", { symbol: "Gateway.send" });
    await e.addNote("NOTE-ON-LOOP unrelated", { symbol: "ping" });
    const result = await e.context("Gateway send retries the amount", { budget: 2000 });
    expect(result.text).toContain("NOTE-ON-SEND");
    expect(result.text).not.toContain("NOTE-ON-LOOP");
    expect(result.notes?.map((n) => n.text)).toEqual(["NOTE-ON-SEND amounts are in cents"]);
    expect(result.tokens).toBeLessThanOrEqual(2000);
    expect(await e.countTokens(result.text)).toBe(result.tokens);
  });

  it("makes room for the notes in tight budgets, and never goes over", async () => {
    const e = await setup();
    await e.addNote(`NOTE-ON-SEND ${"amounts are in cents, never in dollars; ".repeat(4)}`, { symbol: "Gateway.send" });
    for (const budget of [40, 120, 200, 400]) {
      const result = await e.context("Gateway send retries the amount", { budget });
      expect(result.tokens).toBeLessThanOrEqual(budget);
      expect(await e.countTokens(result.text)).toBe(result.tokens);
      if (result.notes) expect(result.spans.some((s) => s.path === "shop/payments.py")).toBe(true);
    }
    expect((await e.context("Gateway send retries the amount", { budget: 400 })).notes).toHaveLength(1);
  });

  describe("in a context that fills its budget", () => {
    // A file big enough to fill 20,000 tokens, all of it about the task.
    const ledger = Array.from({ length: 500 }, (_, i) => `def ledger_amount_${i}(entries, retries=${i}):\n    """Sums the ledger amount after ${i} retries."""\n    total = sum(e.amount for e in entries)\n    return total * retries + ${i}\n`).join("\n");
    const task = "ledger amount after retries is wrong";

    async function big(): Promise<Engine> {
      repo = TempRepo.create({ ...PYTHON, "shop/ledger.py": ledger });
      engine = new Engine(repo.root, { jobs: 1, git: false });
      await engine.index();
      return engine;
    }

    it("shows notes of 200 to 2,000 characters at 2k to 20k tokens, reporting the budget asked for", async () => {
      const e = await big();
      for (const length of [200, 500, 1000, 2000]) {
        for (const n of await e.notes()) e.removeNote(n.id);
        const text = `NOTE-${length} ${"amounts are in cents, never dollars. ".repeat(length / 37)}`.slice(0, length).trim();
        await e.addNote(text, { path: "shop/ledger.py" });
        for (const budget of [2000, 4000, 8000, 20000]) {
          const result = await e.context(task, { budget });
          expect(result.budget).toBe(budget);
          expect(result.tokens).toBeLessThanOrEqual(budget);
          expect(result.notes?.map((n) => n.text), `${length} characters at ${budget} tokens`).toEqual([text]);
          expect(result.text).toContain(`NOTE-${length}`);
          expect(await e.countTokens(result.text)).toBe(result.tokens);
        }
      }
    });

    it("lets a note too long for the budget go, and keeps the short notes on the same file", async () => {
      const e = await big();
      const long = await e.addNote(`LONG-NOTE ${"this note is far too long for the budget. ".repeat(80)}`, { path: "shop/ledger.py" });
      const short = await e.addNote("SHORT-NOTE amounts are in cents", { path: "shop/ledger.py" });
      const result = await e.context(task, { budget: 1000 });
      expect(result.notes?.map((n) => n.id)).toEqual([short.id]);
      expect(result.tokens).toBeLessThanOrEqual(1000);
      expect(result.budget).toBe(1000);
      const roomy = await e.context(task, { budget: 20000 });
      expect(roomy.notes?.map((n) => n.id).sort()).toEqual([long.id, short.id].sort());
    });
  });
});
