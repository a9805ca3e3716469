import type { Readable, Writable } from "node:stream";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { z } from "zod";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { resolveConfig } from "../core/config.js";
import { ContextSmithError } from "../core/errors.js";
import type { ProgressEvent } from "../core/types.js";
import { Engine, type EngineOptions } from "../engine.js";
import { Runtime } from "../runtime/runtime.js";
import { IndexStore } from "../store/store.js";
import { RepoWatcher } from "../watch/watcher.js";
import { Freshness } from "./freshness.js";
import { runTool, TOOLS, type ToolContext } from "./tools.js";

/** Where the server serves from, and its I/O (stdio by default; injected in tests). */
export interface ServeOptions extends EngineOptions {
  root: string;
  /** The least time between two incremental re-index checks (default 2,000 ms). */
  minRefreshMs?: number;
  /** Watch the files and the commit and index as they change (see watch/watcher.ts), instead of checking before answers. */
  watch?: boolean;
  input?: Readable;
  output?: Writable;
  /** Logs (never stdout: it carries the protocol). */
  log?: (line: string) => void;
  version?: string;
}

/** A running server: resolves `closed` when the client disconnects. */
export interface RunningServer {
  server: McpServer;
  engine: Engine;
  closed: Promise<void>;
  close(): Promise<void>;
}

/** What a tool shows of itself in the tool list. */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodRawShape;
  readOnly: boolean;
}

/** An MCP server with `tools`, each call answered by `run` as text (a tool error when `isError`). */
export function toolServer<T extends ListedTool>(
  info: { name: string; version: string; instructions: string },
  tools: readonly T[],
  run: (tool: T, args: Record<string, unknown>) => Promise<{ text: string; isError: boolean }>,
): McpServer {
  const server = new McpServer({ name: info.name, version: info.version }, { capabilities: { logging: {} }, instructions: info.instructions });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: { readOnlyHint: tool.readOnly, openWorldHint: false } },
      async (args: Record<string, unknown>) => {
        const { text, isError } = await run(tool, args);
        return { content: [{ type: "text" as const, text }], ...(isError ? { isError: true } : {}) };
      },
    );
  }
  return server;
}

/** Connects `server` over stdio; resolves `closed` when the client disconnects (or closes its end of stdin). */
export async function connectStdio(server: McpServer, input: Readable, output: Writable | undefined): Promise<{ closed: Promise<void> }> {
  const transport = new StdioServerTransport(input, output);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // The transport does not hear its input end: a client that closes stdin has disconnected.
    input.once("end", () => resolve());
  });
  await server.connect(transport);
  return { closed };
}

/**
 * Builds the MCP server over an engine: every tool is a thin adapter (see tools.ts), with its
 * input schema validated by the SDK (a bad argument is a tool error, never a crash).
 */
export function createMcpServer(ctx: ToolContext, version = "0.0.0"): McpServer {
  return toolServer(
    {
      name: "contextsmith",
      version,
      instructions:
        "ContextSmith indexes this repository locally. For any coding task, call get_context with the task first: it returns the relevant code within a token budget. Use find_symbol, callers, callees and impact to navigate, related_files for a file's neighbours, add_note to leave a gotcha for later sessions.",
    },
    TOOLS,
    (tool, args) => runTool(tool, args, ctx),
  );
}

/**
 * `ctxsmith serve`: speaks MCP over stdio for the repository at `root`. Ready to answer
 * `initialize` at once; a repository without an index starts indexing as soon as the client is
 * initialized, and tools answer when it is done.
 */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  // The serving thread only reads: index runs go to the index thread, whose parse threads stay
  // warm between refreshes as long as the model does.
  const runtime = options.runtime ?? new Runtime({ indexThread: true, keepAlive: resolveConfig(options.root, options).embedding.keepAlive });
  const engine = new Engine(options.root, { ...options, runtime });
  let server: McpServer | undefined;
  let lastLog = 0;
  const onProgress = (event: ProgressEvent): void => {
    const line = progressLine(event);
    if (!line || ((event.stage === "parse" || event.stage === "embed") && Date.now() - lastLog < 1000 && event.done !== event.total)) return;
    lastLog = Date.now();
    log(`contextsmith: ${line}`);
    if (server?.isConnected()) void server.sendLoggingMessage({ level: "info", logger: "contextsmith", data: line }).catch(() => undefined);
  };
  let watching: { watcher: RepoWatcher; started: Promise<unknown> } | null = null;
  if (options.watch) {
    const watcher = new RepoWatcher(engine, {
      onProgress,
      onRun: (run) => run.reason !== "start" && log(`contextsmith: indexed ${run.events} changed files (${run.stats.files.parsed} parsed, ${run.stats.files.removed} removed)`),
      onError: (error) => log(`contextsmith: indexing failed: ${error.message} (watching on)`),
    });
    // The first run builds or checks the index; answers wait for it.
    const started = watcher.start();
    started.then(() => log(`contextsmith: watching ${engine.config.root}`), (error: unknown) => log(`contextsmith: watching failed: ${ContextSmithError.from(error, "INTERNAL").message}`));
    watching = { watcher, started };
  }
  const freshness = new Freshness(engine, { minIntervalMs: options.minRefreshMs, onProgress, ...(watching ? { watcher: { started: watching.started, changedSince: () => watching!.watcher.changedSince() } } : {}) });
  server = createMcpServer({ engine, freshness, log }, options.version);
  server.server.oninitialized = () => {
    if (watching || IndexStore.exists(engine.config.indexDir)) return;
    log(`contextsmith: no index of ${engine.config.root} yet: indexing now`);
    freshness.ensure().catch((error: unknown) => log(`contextsmith: indexing failed: ${ContextSmithError.from(error, "INTERNAL").message}`));
  };
  const { closed } = await connectStdio(server, options.input ?? process.stdin, options.output);
  log(`contextsmith: serving ${engine.config.root} over stdio`);
  return {
    server,
    engine,
    closed,
    async close() {
      await watching?.watcher.close();
      await server.close();
      await engine.close();
      if (runtime !== options.runtime) await runtime.close();
    },
  };
}

function progressLine(event: ProgressEvent): string | null {
  switch (event.stage) {
    case "walk":
      return `found ${event.files} files`;
    case "parse":
      return `parsed ${event.done}/${event.total} files`;
    case "git":
      return `read ${event.commits} commits`;
    case "resolve":
      return event.done === event.total ? `resolved calls and imports of ${event.total} files` : null;
    case "graph":
    case "lexical":
    case "history":
    case "lock":
      return event.message;
    case "embed":
      return `embedded ${event.done}/${event.total} files (${event.embedded} summaries)`;
    case "download":
      return event.received === event.total ? `downloaded ${event.model} ${event.file}` : null;
    case "done":
      return `index ready in ${event.ms} ms`;
    default:
      return null;
  }
}
