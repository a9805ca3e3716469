import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import { runCli } from "../helpers/cli.js";
import { TempRepo } from "../helpers/repo.js";
import { storeOf } from "../helpers/store.js";

/** A repository as a careless or hostile user leaves it, indexed and queried end to end. */
describe("a hostile repository", () => {
  let repo: TempRepo;
  let outside: string;
  beforeEach(() => {
    outside = mkdtempSync(join(tmpdir(), "ctxsmith-outside-"));
    writeFileSync(join(outside, "secret.py"), "def leaked_secret():\n    return 'TOP-SECRET-VALUE'\n");
    repo = TempRepo.create({
      "src/app.py": "def checkout(cart):\n    return sum(cart)\n",
      "src/blob.bin.py": Buffer.from([0x64, 0x65, 0x66, 0x00, 0xff, 0xfe]),
      "src/latin1.py": Buffer.from("x = 'caf\xe9'\n", "latin1"),
    });
    execFileSync("mkfifo", [repo.path("src/pipe.py")]);
    symlinkSync(join(outside, "secret.py"), repo.path("src/linked_secret.py"));
    symlinkSync(outside, repo.path("outside_dir"));
    mkdirSync(repo.path("loop"));
    symlinkSync(repo.path("loop"), repo.path("loop/self"));
  });
  afterEach(() => {
    repo.dispose();
    rmSync(outside, { recursive: true, force: true });
  });

  it("indexes what it can, never reads through a link, never blocks on a FIFO, and says what it skipped", () => {
    const indexed = runCli(["index", repo.root, "--json", "--no-git"]);
    expect(indexed.status, indexed.stderr).toBe(0);
    const stats = JSON.parse(indexed.stdout) as { files: { parsed: number; skipped: Record<string, number> } };
    expect(stats.files.parsed).toBe(1);
    expect(stats.files.skipped).toMatchObject({ binary: 1, undecodable: 1, symlink: 3 });
    const context = runCli(["context", "leaked_secret TOP-SECRET-VALUE checkout", "--path", repo.root, "--json"]);
    expect(context.status, context.stderr).toBe(0);
    expect(context.stdout).not.toContain("TOP-SECRET-VALUE");
    expect(JSON.parse(context.stdout).files).toEqual(["src/app.py"]);
  });

  it("indexes a file as it is when it is read, when it changes between the walk and the parse", async () => {
    rmSync(repo.path("src/pipe.py"));
    const engine = new Engine(repo.root, { jobs: 1, git: false });
    try {
      await engine.index({
        onProgress: (e) => {
          if (e.stage === "walk") writeFileSync(repo.path("src/app.py"), "def checkout(cart):\n    return sum(cart)\n\ndef refund(order):\n    return -order\n");
        },
      });
      expect(storeOf(engine)!.parse.symbols("src/app.py")!.map((s) => s.name)).toEqual(["checkout", "refund"]);
      // The stat recorded by the walk is older than the content: the next run reads it again and finds it unchanged.
      const again = await engine.index();
      expect(again.files.parsed).toBe(0);
      expect((await engine.search("refund")).map((h) => h.name)).toContain("refund");
    } finally {
      await engine.close();
    }
  });

  it("keeps what it indexed under a folder it can no longer list, and says so", async () => {
    rmSync(repo.path("src/pipe.py"));
    repo.write({ "lib/money.py": "def cents(amount):\n    return round(amount * 100)\n", "lib/tax.py": "def vat(x):\n    return x * 0.2\n" });
    const engine = new Engine(repo.root, { jobs: 1, git: false });
    try {
      await engine.index();
      process.env.CTXSMITH_FAULT = "unreadable:lib"; // as if the folder had lost its permissions
      const stats = await engine.index();
      expect(stats.files.removed).toBe(0);
      expect(stats.files.skipped.unreadable).toBe(2);
      expect(stats.warnings.join("\n")).toMatch(/2 indexed files could not be looked at \(no permission: lib\/\); kept as they were/);
      expect(storeOf(engine)!.file("lib/money.py")).toBeDefined();
      expect((await engine.search("cents", { refresh: false })).map((h) => h.name)).toContain("cents");
    } finally {
      delete process.env.CTXSMITH_FAULT;
      await engine.close();
    }
  });
});
