import type { Readable, Writable } from "node:stream";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { watchInBackground } from "../watch/workspace.js";
import { hostWorkspace } from "../workspace/host.js";
import type { Workspace, WorkspaceOptions } from "../workspace/workspace.js";
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
  /** Watch the repositories' files and commits and index as they change (see watch/workspace.ts). */
  watch?: boolean;
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
  const hosted = await hostWorkspace({ ...options, log });
  const { workspace } = hosted;
  const watching = options.watch ? watchInBackground(workspace, log) : null;
  const server = createWorkspaceMcpServer({ workspace, log, ...(watching ? { pending: watching.changedSince } : {}) }, options.version);
  let closed: Promise<void>;
  try {
    ({ closed } = await connectStdio(server, options.input ?? process.stdin, options.output));
  } catch (error) {
    await watching?.close();
    await hosted.close();
    throw error;
  }
  log(`contextsmith: serving the workspace ${workspace.dataDir} (${workspace.repos().length} repositories) over stdio`);
  return {
    server,
    workspace,
    closed,
    async close() {
      await watching?.close();
      await server.close();
      await hosted.close();
    },
  };
}
