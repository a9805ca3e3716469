import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runWorkspaceTool, WORKSPACE_TOOLS } from "../../src/mcp/workspace-tools.js";
import { Workspace } from "../../src/workspace/workspace.js";

describe("workspace tools with a watcher", () => {
  let ws: Workspace | undefined;
  let dataDir = "";
  afterEach(async () => {
    await ws?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("name the files being indexed, per repository, ahead of the answer; nothing when none are", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-pending-"));
    ws = new Workspace({ dataDir });
    const tool = WORKSPACE_TOOLS.find((t) => t.name === "list_repositories")!;
    let pending = [{ repo: "web", changed: ["src/login.ts", "src/api.ts"] }];
    const answer = await runWorkspaceTool(tool, {}, { workspace: ws, pending: () => pending });
    expect(answer.text.split("\n")[0]).toBe("Being indexed now, changed since this answer's index: web: src/login.ts, src/api.ts.");
    pending = [];
    expect((await runWorkspaceTool(tool, {}, { workspace: ws, pending: () => pending })).text).not.toContain("Being indexed");
  });
});
