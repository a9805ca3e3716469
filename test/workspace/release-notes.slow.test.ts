import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/runtime.js";
import { Workspace } from "../../src/workspace/workspace.js";
import { TempRepo } from "../helpers/repo.js";

/** A repository of 20 commits to `code`, every other one adding to `notes`. */
function repoWithNotes(code: Record<string, (i: number) => string>, notes: string): TempRepo {
  const body = (i: number) => `# Changes\n\n## Unreleased\n\n${Array.from({ length: i % 3 }, (_, k) => `- fix ${k}`).join("\n")}\n\n## 1.0\n\n- first\n${"- old\n".repeat(40)}`;
  const files = (i: number) => Object.fromEntries(Object.entries(code).map(([path, text]) => [path, text(i)]));
  const repo = TempRepo.create({ ...files(0), [notes]: body(0) }, { git: true });
  for (let i = 1; i < 20; i++) {
    repo.write({ ...files(i), ...(i % 2 === 0 ? { [notes]: body(i) } : {}) });
    repo.commitAll(`Change ${i}`);
  }
  return repo;
}

describe("release notes in a workspace pack", () => {
  let dataDir: string;
  let runtime: Runtime;
  let web: TempRepo;
  let billing: TempRepo;
  let ws: Workspace;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-ws-notes-"));
    runtime = new Runtime();
    web = repoWithNotes({ "src/cart.ts": (i) => `export function renderCart(items: number[]) {\n  return items.length + ${i};\n}\n` }, "CHANGELOG.md");
    billing = repoWithNotes({ "billing/invoice.py": (i) => `def compute_invoice_total(lines):\n    return sum(lines) + ${i}\n` }, "NEWS.md");
    ws = new Workspace({ dataDir, runtime, engine: { jobs: 1, semantic: false } });
    await ws.addRepo("web", web.root);
    await ws.addRepo("billing", billing.root);
  }, 120_000);
  afterAll(async () => {
    await ws.close();
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
    web.dispose();
    billing.dispose();
  });

  it("ends with the notes of the best file's repository, named by repository", async () => {
    const packed = await ws.context("compute_invoice_total returns the wrong invoice total", { all: true }, { budget: 3000 });
    expect(packed.spans[0]).toMatchObject({ repo: "billing", path: "billing/invoice.py" });
    expect(packed.spans).toContainEqual(expect.objectContaining({ repo: "billing", path: "NEWS.md", start: 1, kind: "file-outline" }));
    expect(packed.spans.some((s) => s.path === "CHANGELOG.md")).toBe(false);
    expect(packed.text).toContain("### billing: NEWS.md · lines 1-");
    expect(packed.text).toContain("release notes: 50% of the newest 20 commits add to them");
  });

  it("ranks the notes of the best file's repository alone, though each repository places its own", async () => {
    // A task both repositories rank files for: web's own ranking places its notes.
    const task = "compute_invoice_total returns the wrong invoice total for the items of renderCart";
    const own = await ws.rank(task, { repos: ["web"] });
    expect(own.files.filter((f) => f.releaseNotes !== undefined).map((f) => f.path)).toEqual(["CHANGELOG.md"]);
    const { files } = await ws.rank(task, { all: true });
    expect(files[0]).toMatchObject({ repo: "billing", path: "billing/invoice.py" });
    expect(files.filter((f) => f.releaseNotes !== undefined).map((f) => `${f.repo}: ${f.path}`)).toEqual(["billing: NEWS.md"]);
    expect(files.some((f) => f.path === "CHANGELOG.md")).toBe(false);
  });
});
