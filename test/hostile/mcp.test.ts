import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PYTHON } from "../graph/fixtures.js";
import { CLI, runCli } from "../helpers/cli.js";
import { TempRepo } from "../helpers/repo.js";

/** `ctxsmith serve` against a client that misbehaves: malformed messages, hostile arguments, a flood of calls. */
describe("a hostile MCP client", () => {
  let repo: TempRepo;
  beforeAll(() => {
    repo = TempRepo.create(PYTHON, { git: true });
    expect(runCli(["index", repo.root, "--quiet"]).status).toBe(0);
  });
  afterAll(() => repo.dispose());

  it("skips malformed messages, answers the valid ones, and exits 0 when the client goes", async () => {
    const child = spawn(process.execPath, [CLI, "serve", "--path", repo.root], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env } });
    const answers: Array<{ id?: number; result?: unknown; error?: { code: number } }> = [];
    let buffer = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      buffer += d;
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        answers.push(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
      }
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const send = (line: string): boolean => child.stdin.write(`${line}\n`);
    send("this is not JSON");
    send('{"unterminated": ');
    send('{"foo": 1}');
    send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "no/such/method" }));
    send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "hostile", version: "0" } } }));
    send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "related_files", arguments: { path: "../../../../etc/passwd" } } }));
    send(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "get_context", arguments: { task: "x".repeat(200_000) } } }));
    send(JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/list" }));
    for (let i = 0; i < 600 && ![1, 2, 3, 4, 5].every((id) => answers.some((a) => a.id === id)); i++) await new Promise((r) => setTimeout(r, 100));
    child.stdin.end();
    expect(await exited).toBe(0);
    const byId = new Map(answers.filter((a) => a.id !== undefined).map((a) => [a.id, a]));
    expect(byId.get(1)?.error?.code).toBe(-32601);
    expect(byId.get(2)?.result).toMatchObject({ serverInfo: { name: expect.any(String) } });
    const traversal = byId.get(3)?.result as { isError?: boolean; content: Array<{ text: string }> };
    expect(traversal.isError).toBe(true);
    expect(traversal.content[0]!.text).not.toContain("root:");
    expect(byId.get(4)).toBeDefined();
    expect((byId.get(5)?.result as { tools: unknown[] }).tools.length).toBeGreaterThan(5);
  });

  it("answers 200 concurrent calls, every one", async () => {
    const env = { ...getDefaultEnvironment(), CTXSMITH_OFFLINE: "1", CTXSMITH_CACHE_DIR: process.env.CTXSMITH_CACHE_DIR ?? "" };
    const client = new Client({ name: "flood", version: "0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "serve", "--path", repo.root], stderr: "pipe", env }));
    try {
      const names = ["get_context", "search", "find_symbol", "callers", "related_files"] as const;
      const args = (name: (typeof names)[number], i: number): Record<string, unknown> =>
        name === "get_context" ? { task: `charge the card ${i}` } : name === "search" ? { query: `charge ${i}` } : name === "related_files" ? { path: "shop/util.py" } : { name: "charge_card" };
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => client.callTool({ name: names[i % names.length]!, arguments: args(names[i % names.length]!, i) }) as Promise<{ isError?: boolean; content: unknown[] }>),
      );
      expect(results).toHaveLength(200);
      expect(results.filter((r) => r.isError === true)).toEqual([]);
      expect(results.every((r) => r.content.length > 0)).toBe(true);
    } finally {
      await client.close();
    }
  });
});
