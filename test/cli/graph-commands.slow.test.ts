import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { TempRepo } from "../helpers/repo.js";
import { PYTHON } from "../graph/fixtures.js";

let repo: TempRepo;

beforeAll(() => {
  repo = TempRepo.create(PYTHON, { git: true, message: "shop: first version" });
  // A scripted history: payments and util change together twice, main alone once.
  repo.write({ "shop/util.py": `${PYTHON["shop/util.py"]}\n# v2\n`, "shop/payments.py": `${PYTHON["shop/payments.py"]}\n# v2\n` });
  repo.commitAll("retry: back off");
  repo.write({ "shop/util.py": `${PYTHON["shop/util.py"]}\n# v3\n`, "shop/payments.py": `${PYTHON["shop/payments.py"]}\n# v3\n` });
  repo.commitAll("retry: jitter");
  repo.write({ "app/main.py": `${PYTHON["app/main.py"]}\n# v2\n` });
  repo.commitAll("main: tidy");
});
afterAll(() => repo.dispose());

function json(args: string[]): { status: number | null; out: Record<string, unknown>; stderr: string } {
  const r = runCli([...args, "--json", "--path", repo.root]);
  return { status: r.status, out: JSON.parse(r.stdout) as Record<string, unknown>, stderr: r.stderr };
}

describe("ctxsmith symbol / callers / callees / impact / related / overview / note", () => {
  it("symbol --json lists the definitions with file, lines, kind, signature and doc", () => {
    const { status, out } = json(["symbol", "StripeGateway.charge"]);
    expect(status).toBe(0);
    expect(out).toMatchObject({ query: "StripeGateway.charge", suggestions: [] });
    expect(out.matches).toEqual([
      { path: "shop/payments.py", name: "charge", qualifiedName: "StripeGateway.charge", kind: "method", signature: "def charge(self, amount)", doc: "", startLine: 11, endLine: 13, language: "python" },
    ]);
  });

  it("an unknown name fails with NOT_FOUND and suggestions", () => {
    const r = runCli(["symbol", "charge_crd", "--path", repo.root]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("Did you mean: charge_card");
    const { out } = json(["callers", "charge_crd"]);
    expect(out).toMatchObject({ error: { code: "NOT_FOUND", data: { suggestions: ["charge_card"] } } });
  });

  it("callers and callees print one hop with the call lines", () => {
    const callers = runCli(["callers", "charge_card", "--path", repo.root]);
    expect(callers.status).toBe(0);
    expect(callers.stdout).toContain("app/main.py:6  checkout");
    expect(callers.stdout).toContain("tests/test_payments.py:5  test_charge");
    const { out } = json(["callees", "page"]);
    expect((out.calls as Array<{ how: string; candidates: number }>).map((c) => [c.how, c.candidates])).toEqual([["ambiguous", 2], ["ambiguous", 2]]);
  });

  it("impact prints a tree with counts and the tests to run", () => {
    const r = runCli(["impact", "retry", "--depth", "4", "--path", repo.root]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/test_charge {2}tests\/test_payments\.py:5 \[test\]/);
    expect(r.stdout).toContain("tests to run: tests/test_payments.py");
    const { out } = json(["impact", "retry", "--depth", "4"]);
    expect(out).toMatchObject({ tests: ["tests/test_payments.py"], truncated: false });
  });

  it("related lists imports both ways, co-changes from git history and call neighbours", () => {
    const { status, out } = json(["related", "shop/util.py"]);
    expect(status).toBe(0);
    expect(out.importedBy).toEqual(["shop/payments.py"]);
    // The first commit touched every file once; payments changed with util in all three.
    const cochange = out.cochange as Array<{ path: string; commits: number }>;
    expect(cochange[0]).toEqual({ path: "shop/payments.py", commits: 3 });
    expect(cochange.slice(1).every((c) => c.commits === 1)).toBe(true);
    expect((out.calledBy as Array<{ path: string }>).map((c) => c.path)).toEqual(["shop/payments.py"]);
    const missing = runCli(["related", "nope.py", "--path", repo.root]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("nope.py is not a file of the index");
  });

  it("overview reports languages, central and hot files and the index status", () => {
    const { status, out } = json(["overview"]);
    expect(status).toBe(0);
    expect((out.languages as Array<{ language: string }>)[0]).toMatchObject({ language: "python", files: 9 });
    expect((out.central as Array<{ path: string }>).length).toBeGreaterThan(0);
    expect((out.hot as Array<{ path: string; commits: number }>).slice(0, 2).map((h) => h.commits)).toEqual([3, 3]);
    expect(out.index).toMatchObject({ schema: expect.any(Number), semantic: false });
  });

  it("note add, list and rm round-trip, and context shows the note", () => {
    const added = json(["note", "add", "cents, not dollars", "--symbol", "Gateway.send"]);
    expect(added.status).toBe(0);
    const id = (added.out.note as { id: string }).id;
    const listed = runCli(["note", "list", "--path", repo.root]);
    expect(listed.stdout).toContain(`${id}  Gateway.send (shop/payments.py):6`);
    const context = json(["context", "Gateway send amount retry", "--budget", "1500"]);
    expect((context.out.notes as Array<{ id: string }>).map((n) => n.id)).toEqual([id]);
    expect(context.out.text).toContain("cents, not dollars");
    expect(runCli(["note", "rm", id, "--path", repo.root]).status).toBe(0);
    expect(json(["note", "list"]).out).toEqual({ notes: [] });
    const bad = runCli(["note", "add", "x", "--path", repo.root]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("Pin the note to a file or to a symbol");
  });
});
