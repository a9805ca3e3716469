import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool } from "../helpers/mcp.js";
import { TempRepo } from "../helpers/repo.js";
import { tinyModel } from "../runtime/embed/models.js";

// What a user does: `npm pack`, then `npm install -g` of the tarball into a prefix of its own,
// from a folder outside this repository (so its .npmrc and package.json settings, which a user's
// machine does not have, play no part), then the commands of README's first steps. On this
// project's machines the npm registry is the only network: optional parts whose install scripts
// download from elsewhere (onnxruntime-node's GPU binaries) must fall away without failing it.
// Run by `npm run test:install` (in CI, after the suite): minutes, and it needs the registry.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

/**
 * The environment without what `npm run` adds from this repository's .npmrc
 * (`npm_config_legacy_peer_deps`, …) and what CI sets for its own install. The user's own npm configuration stays: it is part of the
 * machine (where the tree-sitter core compiles, node-gyp needs Node's headers: from nodejs.org,
 * or a `nodedir`, as on this project's machines).
 */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  // `.ci/run`'s ONNXRUNTIME_NODE_INSTALL=skip too: a user's machine has no such setting.
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !/^(?:npm_|ONNXRUNTIME_NODE_INSTALL)/i.test(key)) env[key] = value;
  return { ...env, CTXSMITH_OFFLINE: "1", CTXSMITH_CACHE_DIR: join(tmpdir(), `ctxsmith-install-cache-${process.pid}`), ...extra };
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env: userEnv(env), encoding: "utf8", timeout: 600_000 });
}

let work = "";
let bin = "";
let install: SpawnSyncReturns<string>;
let repo: TempRepo | undefined;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "ctxsmith-install-"));
  const pack = run("npm", ["pack", "--ignore-scripts", "--pack-destination", work], ROOT);
  expect(pack.status, pack.stderr).toBe(0);
  const tarball = join(work, pack.stdout.trim().split("\n").pop()!);
  install = run("npm", ["install", "-g", "--loglevel=warn", "--prefix", join(work, "prefix"), tarball], work);
  bin = join(work, "prefix", "bin", "ctxsmith");
  repo = TempRepo.create({
    "shop/payments.py": "def charge_card(card, amount):\n    \"\"\"Charge a card.\"\"\"\n    return retry(card)\n\ndef retry(card):\n    return card\n",
    "Sources/Shop/Cart.swift": "struct Cart {\n    func total() -> Int { 0 }\n}\n",
  });
});

afterAll(() => {
  repo?.dispose();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the packed package, installed as a user installs it", () => {
  it("installs from the npm registry alone, with no warning of its own making", () => {
    expect(install.status, install.stderr).toBe(0);
    // npm 11 (11.16 on) lists the packages whose install scripts it runs without an allowScripts
    // entry of the user's (`install-scripts`, a notice for any package with native parts); no other
    // warning (a peer conflict, a deprecation) is ours to leave.
    const warnings = install.stderr.split("\n").filter((l) => /^npm warn/i.test(l));
    expect(warnings.filter((l) => !/^npm warn install-scripts/i.test(l))).toEqual([]);
    // The notice names native packages only (and the package's own `prepare`, which npm does not run for a tarball).
    const listed = warnings.flatMap((l) => /^npm warn install-scripts +(\S+)@[\d.]+ \((?:install|postinstall|prepare): /i.exec(l)?.[1] ?? []);
    const native = /^(?:tree-sitter(?:-[\w-]+)?|@tree-sitter-grammars\/tree-sitter-kotlin|lmdb|msgpackr-extract|hnswlib-node|koffi|protobufjs|contextsmith)$/;
    expect(listed.filter((name) => !native.test(name))).toEqual([]);
  });

  it("runs: --version, index (Python and Swift parsed), context", () => {
    const version = run(bin, ["--version"], work);
    expect(version.stdout.trim()).toBe(pkg.version);
    const index = run(bin, ["index", repo!.root, "--no-git", "--json"], work);
    expect(index.status, index.stderr).toBe(0);
    const stats = JSON.parse(index.stdout) as { files: { parsed: number }; totals: { symbols: number } };
    // charge_card, retry, Cart, Cart.total: the Swift grammar is bundled, so it loads wherever the others do.
    expect(stats).toMatchObject({ files: { parsed: 2 }, totals: { symbols: 4 } });
    const context = run(bin, ["context", "charge the card again", "--budget", "800", "--path", repo!.root], work);
    expect(context.status, context.stderr).toBe(0);
    expect(context.stdout).toContain("def charge_card(card, amount):");
  });

  it("embeds with onnxruntime-node where npm installed it, and says what is missing where it left it out", () => {
    const model = tinyModel();
    try {
      const index = run(bin, ["index", repo!.root, "--no-git", "--json"], work, { CTXSMITH_EMBED_MODEL: model });
      expect(index.status, index.stderr).toBe(0);
      const { semantic } = JSON.parse(index.stdout) as { semantic: { on: boolean; reason: string | null } };
      // Its install script downloads GPU binaries from NuGet: on a machine that cannot reach it, npm leaves the optional package out.
      const installed = existsSync(join(work, "prefix", "lib", "node_modules", "contextsmith", "node_modules", "onnxruntime-node"));
      if (installed) expect(semantic).toMatchObject({ on: true, reason: null });
      else expect(semantic.reason).toMatch(/^onnxruntime-node cannot load \(.*\): local embeddings and --rerank are off, search is lexical\. Install it beside contextsmith/);
    } finally {
      rmSync(model, { recursive: true, force: true });
    }
  });

  it("serves MCP over stdio", async () => {
    const client = new Client({ name: "contextsmith-install-test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: bin, args: ["serve", "--path", repo!.root], stderr: "pipe", env: userEnv() }));
    try {
      const found = await callTool(client, "find_symbol", { name: "charge_card" });
      expect(found.isError).toBe(false);
      expect(found.text).toContain("shop/payments.py");
    } finally {
      await client.close();
    }
  });
});
