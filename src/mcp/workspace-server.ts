import type { Readable, Writable } from "node:stream";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ContextSmithError } from "../core/errors.js";
import { Runtime } from "../runtime/runtime.js";
import { serveControl } from "../workspace/control.js";
import { acquireInstanceLock } from "../workspace/instance-lock.js";
import { Workspace, type WorkspaceOptions } from "../workspace/workspace.js";
import { connectStdio, toolServer } from "./server.js";
import { runWorkspaceTool, WORKSPACE_TOOLS, type WorkspaceToolContext } from "./workspace-tools.js";

export interface ServeWorkspaceOptions extends Omit<WorkspaceOptions, "runtime"> {
  /** Serve even when another workspace server holds the data folder (with a warning). */
  allowMultiInstance?: boolean;
  input?: Readable;
  output?: Writable;
  /** Logs (never stdout: it carries the protocol). */
  log?: (line: string) => void;
  version?: string;
}

export interface RunningWorkspaceServer {
  server: McpServer;
  workspace: Workspace;
  closed: Promise<void>;
  close(): Promise<void>;
}

/** The MCP server over a workspace: every tool is a thin adapter (see workspace-tools.ts). */
export function createWorkspaceMcpServer(ctx: WorkspaceToolContext, version = "0.0.0"): McpServer {
  return toolServer(
    {
      name: "contextsmith-workspace",
      version,
      instructions:
        "ContextSmith indexes the repositories of this workspace locally. For any coding task, call get_context with the task first: it returns the relevant code of all repositories (or those named) within a token budget. list_repositories and get_repository_relations show what there is; search_codebases, get_symbol_definition and get_call_hierarchy navigate across repositories.",
    },
    WORKSPACE_TOOLS,
    (tool, args) => runWorkspaceTool(tool, args, ctx),
  );
}

/**
 * `ctxsmith serve --workspace`: MCP over stdio for every repository of a data folder. It holds the
 * folder's instance lock (one workspace server per data folder), and runs index runs off its
 * event loop, in the runtime's index thread.
 */
export async function serveWorkspace(options: ServeWorkspaceOptions): Promise<RunningWorkspaceServer> {
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const runtime = new Runtime({ indexThread: true, keepAlive: 30_000 });
  const workspace = new Workspace({ ...options, runtime, checkEveryMs: options.checkEveryMs ?? 10_000, refreshInBackground: true });
  let lock: { release(): void } | null = null;
  try {
    lock = await acquireInstanceLock(workspace.dataDir);
  } catch (error) {
    if (!(options.allowMultiInstance && error instanceof ContextSmithError && error.code === "LOCKED")) {
      await workspace.close();
      await runtime.close();
      throw error;
    }
    log(`contextsmith: warning: ${error.message} Serving anyway (--allow-multi-instance).`);
  }
  // The CLI's `models status` and `unload` reach this process's model through the control channel.
  let control: { close(): Promise<void> } | null = null;
  if (lock) {
    try {
      control = await serveControl(workspace.dataDir, async (op) => (op === "models" ? { server: { pid: process.pid }, ...workspace.models() } : { unloaded: await workspace.unload() }), log);
    } catch (error) {
      log(`contextsmith: warning: no control channel (${(error as Error).message}): \`ctxsmith models status\` and \`unload\` will not see this server.`);
    }
  }
  const server = createWorkspaceMcpServer({ workspace, log }, options.version);
  let closed: Promise<void>;
  try {
    ({ closed } = await connectStdio(server, options.input ?? process.stdin, options.output));
  } catch (error) {
    await control?.close();
    await workspace.close();
    await runtime.close();
    lock?.release();
    throw error;
  }
  log(`contextsmith: serving the workspace ${workspace.dataDir} (${workspace.repos().length} repositories) over stdio`);
  return {
    server,
    workspace,
    closed,
    async close() {
      await server.close();
      await control?.close();
      await workspace.close();
      await runtime.close();
      lock?.release();
    },
  };
}
