import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { callTool, connectCli } from "../helpers/mcp.js";
import { TempRepo } from "../helpers/repo.js";
import { PYTHON } from "../graph/fixtures.js";

let repo: TempRepo;
let client: Client;
let stderr = "";

/** Waits until the server's log has `text` (or fails after a while). */
async function logged(text: string, after = 0): Promise<void> {
  for (let waited = 0; !stderr.slice(after).includes(text); waited += 50) {
    if (waited > 20_000) throw new Error(`the server never logged "${text}":\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  repo = TempRepo.create(PYTHON, { git: true });
  client = await connectCli(["serve", "--watch", "--path", repo.root], (text) => (stderr += text));
});

afterAll(async () => {
  await client?.close();
  repo?.dispose();
});

describe("ctxsmith serve --watch", () => {
  it("indexes an edit as it happens, between answers, and answers with it", async () => {
    // The first answer waits for the first run, which builds the index.
    expect((await callTool(client, "find_symbol", { name: "charge_card" })).isError).toBe(false);
    await logged("contextsmith: watching");
    const mark = stderr.length;
    repo.write({ "shop/util.py": `${PYTHON["shop/util.py"]}\n\ndef backoff_delay(attempt):\n    return 2 ** attempt\n` });
    await logged("indexed 1 changed files (1 parsed, 0 removed)", mark);
    const { text, isError } = await callTool(client, "find_symbol", { name: "backoff_delay" });
    expect(isError).toBe(false);
    expect(text).toContain("shop/util.py");
  });

  it("watches every repository of a workspace server too (serve --workspace --watch)", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-watch-ws-"));
    const other = TempRepo.create({ "lib/util.py": "def helper():\n    return 1\n" }, { git: true });
    let log = "";
    let ws: Client | undefined;
    try {
      expect(runCli(["repo", "add", "lib", other.root, "--data-dir", dataDir]).status).toBe(0);
      ws = await connectCli(["serve", "--workspace", "--watch", "--data-dir", dataDir], (text) => (log += text));
      for (let waited = 0; !log.includes("contextsmith: watching lib"); waited += 50) {
        if (waited > 20_000) throw new Error(`not watching:\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The first answer waits for the first run (which indexes lib/util.py): an edit made before
      // it ends would be that run's, not the watcher's.
      expect((await callTool(ws, "get_symbol_definition", { name: "helper" })).isError).toBe(false);
      const mark = log.length;
      other.write({ "lib/extra.py": "def extra_helper():\n    return 2\n" });
      for (let waited = 0; !log.slice(mark).includes("lib: indexed 1 changed files (1 parsed, 0 removed)"); waited += 50) {
        if (waited > 20_000) throw new Error(`no run:\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const { text, isError } = await callTool(ws, "get_symbol_definition", { name: "extra_helper" });
      expect(isError).toBe(false);
      expect(text).toContain("lib/extra.py");
    } finally {
      await ws?.close();
      other.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
