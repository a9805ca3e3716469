import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../helpers/cli.js";
import { TempRepo } from "../helpers/repo.js";
import { PYTHON } from "../graph/fixtures.js";

// The MCP Inspector's CLI mode: a client we did not write, from the npm registry (a devDependency).
const INSPECTOR = fileURLToPath(new URL("../../node_modules/.bin/mcp-inspector", import.meta.url));

let repo: TempRepo;
beforeAll(() => {
  repo = TempRepo.create(PYTHON);
});
afterAll(() => repo.dispose());

function inspect(...args: string[]): unknown {
  // The inspector starts the server with a minimal environment: pass the tests' model settings on.
  const env = ["CTXSMITH_OFFLINE", "CTXSMITH_CACHE_DIR"].flatMap((k) => ["-e", `${k}=${process.env[k] ?? ""}`]);
  const r = spawnSync(INSPECTOR, ["--cli", ...env, process.execPath, CLI, "serve", "--path", repo.root, ...args], { encoding: "utf8", timeout: 120_000 });
  if (r.status !== 0) throw new Error(`inspector failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

describe("ctxsmith serve through the MCP Inspector's CLI", () => {
  it("lists the tools", () => {
    const { tools } = inspect("--method", "tools/list") as { tools: Array<{ name: string }> };
    expect(tools.map((t) => t.name)).toContain("get_context");
    expect(tools).toHaveLength(12);
  });

  it("calls get_context and find_symbol", () => {
    const context = inspect("--method", "tools/call", "--tool-name", "get_context", "--tool-arg", "task=charge the card through the gateway") as { content: Array<{ text: string }> };
    expect(context.content[0]?.text).toContain("### shop/payments.py");
    const symbol = inspect("--method", "tools/call", "--tool-name", "find_symbol", "--tool-arg", "name=Gateway.send") as { content: Array<{ text: string }> };
    expect(symbol.content[0]?.text).toContain("shop/payments.py:6-7  method Gateway.send");
  });
});
