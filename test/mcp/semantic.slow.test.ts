import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tinyModel } from "../runtime/embed/models.js";
import { CLI, runCli } from "../helpers/cli.js";
import type { TempRepo } from "../helpers/repo.js";
import { shopRepo } from "../helpers/shop.js";

describe("ctxsmith serve with semantic search (a generated model)", () => {
  let repo: TempRepo;
  let model: string;
  let cacheDir: string;
  let client: Client;
  let stderr = "";
  beforeAll(async () => {
    repo = shopRepo();
    model = tinyModel();
    cacheDir = mkdtempSync(join(tmpdir(), "ctxsmith-cache-"));
    const env = { ...getDefaultEnvironment(), CTXSMITH_EMBED_MODEL: model, CTXSMITH_CACHE_DIR: cacheDir, CTXSMITH_OFFLINE: "1" };
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "serve", "--path", repo.root, "--keep-alive", "0"], stderr: "pipe", env });
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: "contextsmith-test", version: "1.0.0" });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    repo.dispose();
    rmSync(model, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it("builds the vectors when it indexes, and get_context ranks with them", async () => {
    const result = (await client.callTool({ name: "get_context", arguments: { task: "charge the declined card again", budget_tokens: 800 } })) as { content: Array<{ text: string }>; isError?: boolean };
    expect(result.isError).toBeUndefined();
    expect(result.content[0]!.text).toMatch(/### shop\//);
    expect(result.content[0]!.text).toMatch(/semantic #\d/); // the file headers name the signals that found each file
    expect(stderr).toMatch(/embedded \d+\/\d+ files \(\d+ summaries\)/);
    const overview = (await client.callTool({ name: "overview", arguments: {} })) as { content: Array<{ text: string }> };
    expect(overview.content[0]!.text).toMatch(/semantic on/);
  });

  it("refuses a keep-alive that is not a duration", () => {
    const r = runCli(["serve", "--path", repo.root, "--keep-alive", "soon"]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/Keep-alive must be a duration like 30s, 5m, 0 or always/);
  });
});
