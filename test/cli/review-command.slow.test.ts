import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { TempRepo } from "../helpers/repo.js";
import { makeServices, SERVICE_FILES } from "../helpers/services.js";

let repo: TempRepo;

beforeAll(() => {
  repo = TempRepo.create(
    {
      "billing/charge.py": "def charge(card, amount):\n    return amount\n",
      "billing/invoice.py": "from billing.charge import charge\n\n\ndef invoice(card):\n    return charge(card, 3)\n",
      "tests/test_invoice.py": "from billing.invoice import invoice\n\n\ndef test_invoice():\n    assert invoice(None) == 3\n",
    },
    { git: true },
  );
  repo.git("checkout", "-q", "-b", "feature");
  repo.write({ "billing/charge.py": "def charge(card, amount, currency):\n    return amount\n" });
  repo.commitAll("charge: currency");
});
afterAll(() => repo.dispose());

describe("ctxsmith review", () => {
  it("prints a Markdown report for a PR comment: summary first, details folded", () => {
    const r = runCli(["review", "--path", repo.root]);
    expect(r.status).toBe(0);
    expect(r.stdout.split("\n")[2]).toMatch(/^\*\*1 file\*\* \(\+1 −1\) · \*\*1 definition\*\* changed \(1 signature changed\) · called from \*\*1 other file\*\* and \*\*1 other test file\*\* · 1 test file exercises it$/);
    expect(r.stdout).toMatch(/^`main` \([0-9a-f]{10}\) → the work tree \(on [0-9a-f]{10}\)$/m);
    expect(r.stdout).toContain("<details><summary>Tests that exercise the change (1)</summary>");
    expect(r.stdout).toContain("- `tests/test_invoice.py`: calls `charge`");
  });

  it("--json follows the contract; --base and --head compare two commits", () => {
    const r = runCli(["review", "--path", repo.root, "--base", "main", "--head", "feature", "--budget", "300", "--json"]);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(Object.keys(report)).toEqual(["root", "range", "summary", "files", "symbols", "tests", "notes", "context"]);
    expect(report.range.head.ref).toBe("feature");
    expect(report.symbols).toEqual([
      expect.objectContaining({ change: "signature", path: "billing/charge.py", qualifiedName: "charge", previousSignature: "def charge(card, amount)", callers: [{ symbol: "invoice", path: "billing/invoice.py", line: 5, test: false }] }),
    ]);
    expect(report.context.tokens).toBeLessThanOrEqual(300);
  });

  it("fails clearly: a base that names no commit is a usage error; --json carries the error", () => {
    const bad = runCli(["review", "--path", repo.root, "--base", "no-such-branch"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--base no-such-branch names no commit of this repository");
    const json = runCli(["review", "--path", repo.root, "--head", "-x", "--json"]);
    expect(json.status).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: "INVALID_ARGUMENT" } });
  });
});

describe("ctxsmith review --repo (a workspace repository)", () => {
  const services = makeServices();
  const dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-review-ws-"));
  const env = { CTXSMITH_DATA_DIR: dataDir };
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
    Object.values(services).forEach((r) => r.dispose());
  });

  it("adds the requests of every repository that reach a changed handler, and the dependents that name a changed declaration", () => {
    // auth serves the login route that web's client posts to.
    services.auth.write({ "auth/login.py": `from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.post("/api/v1/auth/login")\n${SERVICE_FILES.auth["auth/login.py"]!.slice(SERVICE_FILES.auth["auth/login.py"]!.indexOf("def login"))}` });
    services.auth.commitAll("auth: the login route");
    for (const [name, repo] of Object.entries(services)) expect(runCli(["repo", "add", name, repo.root], { env }).status).toBe(0);
    expect(runCli(["relation", "add", "web", "auth"], { env }).status).toBe(0);
    expect(runCli(["relation", "add", "auth", "schema"], { env }).status).toBe(0);

    services.auth.write({ "auth/login.py": services.auth.git("show", "HEAD:auth/login.py").replace("raise PermissionError('bad credentials')", "raise PermissionError('invalid credentials')") });
    const auth = runCli(["review", "--repo", "auth", "--json"], { env });
    expect(auth.status, auth.stderr).toBe(0);
    const login = JSON.parse(auth.stdout).symbols.find((s: { qualifiedName: string }) => s.qualifiedName === "login");
    expect(login).toMatchObject({ change: "body" });
    expect(login.api).toEqual([expect.objectContaining({ repo: "web", file: "src/login.ts", symbol: "submitLogin", method: "POST", path: "/api/v1/auth/login" })]);

    services.schema.write({ "schema/user.py": SERVICE_FILES.schema["schema/user.py"]!.replace("def check_password(self, password):", "def check_password(self, password, pepper):") });
    const schema = runCli(["review", "--repo", "schema"], { env });
    expect(schema.status, schema.stderr).toBe(0);
    // auth depends on schema directly, web through auth: only auth names it.
    expect(schema.stdout).toContain("**Named in dependent repositories:** `UserRecord.check_password` (auth: 1 line)");
    expect(schema.stdout).toContain("- `auth/login.py:");
    expect(runCli(["review", "--repo", "nope"], { env }).stderr).toContain("No repository named nope");
  });
});
