import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/cli.js";
import { callTool } from "../helpers/mcp.js";
import type { TempRepo } from "../helpers/repo.js";
import { shopRepo } from "../helpers/shop.js";
import { tinyModel } from "../runtime/embed/models.js";

describe("models status and unload reach the workspace server's model", () => {
  const model = tinyModel();
  const cacheDir = mkdtempSync(join(tmpdir(), "ctxsmith-cache-"));
  const dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-ws-models-"));
  const env = { CTXSMITH_DATA_DIR: dataDir, CTXSMITH_EMBED_MODEL: model, CTXSMITH_CACHE_DIR: cacheDir, CTXSMITH_OFFLINE: "1", CTXSMITH_KEEP_ALIVE: "5m" };
  let shop: TempRepo;
  let client: Client;

  beforeAll(async () => {
    shop = shopRepo();
    expect(runCli(["repo", "add", "shop", shop.root], { env }).status).toBe(0);
  });

  afterAll(async () => {
    await client?.close();
    shop.dispose();
    for (const dir of [model, cacheDir, dataDir]) rmSync(dir, { recursive: true, force: true });
  });

  it("without a server: the policy and each repository's vectors, nothing loaded, nothing to unload", () => {
    const status = JSON.parse(runCli(["models", "status", "--json"], { env }).stdout);
    expect(status).toMatchObject({ server: null, models: [], policy: { provider: "local", model, keepAlive: 300_000 } });
    expect(status.repos).toEqual([{ repo: "shop", vectorsOf: expect.stringContaining("local"), complete: true }]);
    const unload = runCli(["unload"], { env });
    expect(unload.status).toBe(0);
    expect(unload.stdout).toContain("Nothing to unload: no workspace server runs on");
  });

  it("with a server: loaded after a query, released by unload", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "serve", "--workspace"], stderr: "pipe", env: { ...getDefaultEnvironment(), ...env } });
    client = new Client({ name: "contextsmith-test", version: "1.0.0" });
    await client.connect(transport);
    const before = JSON.parse(runCli(["models", "status", "--json"], { env }).stdout);
    expect(before.server.pid).toBeGreaterThan(0);
    expect(before.models.every((m: { loaded: boolean }) => !m.loaded)).toBe(true);

    const answer = await callTool(client, "get_context", { task: "charge the declined card again", budget_tokens: 800 });
    expect(answer.text).toMatch(/semantic #\d/);
    const loaded = JSON.parse(runCli(["models", "status", "--json"], { env }).stdout);
    expect(loaded.models).toEqual([{ role: "embedder", provider: "local", model, keepAlive: 300_000, loaded: true, active: 0 }]);
    expect(runCli(["models", "status"], { env }).stdout).toMatch(/embedder local \S+: loaded/);

    const unload = runCli(["unload", "--json"], { env });
    expect(unload.status).toBe(0);
    expect(JSON.parse(unload.stdout)).toMatchObject({ server: true, unloaded: [{ model, loaded: true }] });
    expect(JSON.parse(runCli(["models", "status", "--json"], { env }).stdout).models[0]).toMatchObject({ loaded: false });
    // The next query loads it again.
    expect((await callTool(client, "search_codebases", { query: "charge card" })).isError).toBe(false);
    expect((await callTool(client, "get_context", { task: "retry a declined card" })).text).toMatch(/semantic #\d/);
  });
});
