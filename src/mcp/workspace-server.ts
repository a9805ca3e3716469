import type { Readable, Writable } from "node:stream";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ContextSmithError } from "../core/errors.js";
import { Runtime } from "../runtime/runtime.js";
import { acquireInstanceLock } from "../workspace/instance-lock.js";
import { Workspace, type WorkspaceOptions } from "../workspace/workspace.js";
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
  const server = new McpServer(
    { name: "contextsmith-workspace", version },
    {
      capabilities: { logging: {} },
      instructions:
        "ContextSmith indexes the repositories of this workspace locally. For any coding task, call get_context with the task first: it returns the relevant code of all repositories (or those named) within a token budget. list_repositories and get_repository_relations show what there is; search_codebases, get_symbol_definition and get_call_hierarchy navigate across repositories.",
    },
  );
  for (const tool of WORKSPACE_TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: { readOnlyHint: tool.readOnly, openWorldHint: false } },
      async (args: Record<string, unknown>) => {
        const { text, isError } = await runWorkspaceTool(tool, args, ctx);
        return { content: [{ type: "text" as const, text }], ...(isError ? { isError: true } : {}) };
      },
    );
  }
  return server;
}

/**
 * `ctxsmith serve --workspace`: MCP over stdio for every repository of a data folder. It holds the
 * folder's instance lock (one workspace server per data folder), and runs index runs off its
 * event loop, in the runtime's index thread.
 */
export async function serveWorkspace(options: ServeWorkspaceOptions): Promise<RunningWorkspaceServer> {
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const runtime = new Runtime({ indexThread: true, keepAlive: 30_000 });
  const workspace = new Workspace({ ...options, runtime, checkEveryMs: options.checkEveryMs ?? 10_000 });
  let lock: { release(): void } | null = null;
  try {
    lock = await acquireInstanceLock(workspace.dataDir);
  } catch (error) {
    if (!(options.allowMultiInstance && error instanceof ContextSmithError && error.code === "LOCKED")) {
      await workspace.close();
      await runtime.close();
      throw error;
    }
    log(`contextsmith: warning: ${error.message.replace(/ Stop it.*$/, "")} Serving anyway (--allow-multi-instance).`);
  }
  const server = createWorkspaceMcpServer({ workspace, log }, options.version);
  const input = options.input ?? process.stdin;
  const transport = new StdioServerTransport(input, options.output);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    input.once("end", () => resolve());
  });
  await server.connect(transport);
  log(`contextsmith: serving the workspace ${workspace.dataDir} (${workspace.repos().length} repositories) over stdio`);
  return {
    server,
    workspace,
    closed,
    async close() {
      await server.close();
      await workspace.close();
      await runtime.close();
      lock?.release();
    },
  };
}
