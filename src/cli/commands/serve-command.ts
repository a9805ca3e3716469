import type { Argv } from "yargs";
import { ContextSmithError } from "../../core/errors.js";
import { VERSION } from "../../core/version.js";
import { parseKeepAlive } from "../../core/embedding-settings.js";
import type { CliIO } from "../io.js";

interface ServeArgs {
  path: string;
  workspace: boolean;
  "data-dir"?: string;
  "allow-multi-instance": boolean;
  "index-dir"?: string;
  "keep-alive"?: string;
  http?: string;
  token?: string;
  cors?: string[];
  watch: boolean;
}

/** `ctxsmith serve`: the MCP server over stdio. */
export function serveCommand(io: CliIO) {
  return {
    command: "serve",
    describe: "Serve the repository (or the workspace) to agents over MCP (stdio), or over HTTP with --http: REST API, web UI and MCP at /mcp",
    builder: (y: Argv) =>
      y
        .option("path", { alias: "p", type: "string", default: ".", describe: "Repository root" })
        .option("index-dir", { type: "string", describe: "Where the index lives (default PATH/.contextsmith)" })
        .option("workspace", { type: "boolean", default: false, describe: "Serve every repository of the workspace (repo add) instead of --path" })
        .option("data-dir", { type: "string", describe: "The workspace's data folder (with --workspace; default CTXSMITH_DATA_DIR, else ~/.local/share/contextsmith)" })
        .option("allow-multi-instance", { type: "boolean", default: false, describe: "With --workspace: serve even when another server holds the data folder (a warning)" })
        .option("http", { type: "string", describe: "Serve over HTTP at [HOST:]PORT instead of stdio (default 127.0.0.1:8000): the REST API, the web UI, MCP at /mcp" })
        .option("token", { type: "string", describe: "With --http: every request must carry this bearer token (CTXSMITH_TOKEN); required off loopback" })
        .option("cors", { type: "string", array: true, describe: "With --http: origins allowed to call the API from a browser (none by default)" })
        .option("keep-alive", { type: "string", describe: "How long the embedding model stays loaded after a query: 30s (default), 0, 5m, always (CTXSMITH_KEEP_ALIVE)" })
        .option("watch", { type: "boolean", default: false, describe: "Index as files change and commits move, between answers (every repository of a workspace or HTTP server)" }),
    handler: async (args: ServeArgs) => {
      if (args.workspace && (args.path !== "." || args["index-dir"] !== undefined)) {
        throw new ContextSmithError("INVALID_ARGUMENT", "serve --workspace serves the repositories of the data folder: drop --path and --index-dir (or --workspace).");
      }
      // A stray rejection (a client gone mid-answer, a log message that could not be sent) is
      // logged; it must not take down the server an agent is relying on.
      const onRejection = (reason: unknown): void => void io.stderr.write(`contextsmith: ${reason instanceof Error ? reason.message : String(reason)}\n`);
      process.on("unhandledRejection", onRejection);
      const log = (line: string): void => void io.stderr.write(`${line}\n`);
      if (args.http !== undefined) {
        if (args["index-dir"] !== undefined) throw new ContextSmithError("INVALID_ARGUMENT", "serve --http uses the repository's own index: drop --index-dir.");
        if (args.token !== undefined) log("contextsmith: warning: a token given with --token is visible to other users of this machine (ps); prefer CTXSMITH_TOKEN.");
        const running = await (await import("../../http/server.js")).serveHttp({
          listen: args.http,
          workspace: args.workspace,
          root: io.resolvePath(args.path),
          dataDir: args["data-dir"] === undefined ? undefined : io.resolvePath(args["data-dir"]),
          token: args.token ?? process.env.CTXSMITH_TOKEN ?? null,
          corsOrigins: args.cors ?? [],
          allowMultiInstance: args["allow-multi-instance"],
          engine: args["keep-alive"] === undefined ? undefined : { embedding: { keepAlive: parseKeepAlive(args["keep-alive"]) } },
          version: VERSION,
          watch: args.watch,
          log,
        });
        try {
          await new Promise<void>((resolve) => {
            if (!io.signal) return; // served until the process is stopped
            if (io.signal.aborted) return resolve();
            io.signal.addEventListener("abort", () => resolve(), { once: true });
          });
          await running.close();
        } finally {
          process.off("unhandledRejection", onRejection);
        }
        return;
      }
      // Loaded here: the MCP SDK is not parsed by the other commands.
      // stdout carries the protocol: everything else goes to stderr.
      const running = args.workspace
        ? await (await import("../../mcp/workspace-server.js")).serveWorkspace({
            dataDir: args["data-dir"] === undefined ? undefined : io.resolvePath(args["data-dir"]),
            allowMultiInstance: args["allow-multi-instance"],
            engine: args["keep-alive"] === undefined ? undefined : { embedding: { keepAlive: parseKeepAlive(args["keep-alive"]) } },
            version: VERSION,
            watch: args.watch,
            log,
          })
        : await (await import("../../mcp/server.js")).serve({
            root: io.resolvePath(args.path),
            indexDir: args["index-dir"] === undefined ? undefined : io.resolvePath(args["index-dir"]),
            version: VERSION,
            embedding: args["keep-alive"] === undefined ? undefined : { keepAlive: parseKeepAlive(args["keep-alive"]) },
            watch: args.watch,
            log,
          });
      const stopped = new Promise<void>((resolve) => {
        if (!io.signal) return; // no way to be stopped but the client closing
        if (io.signal.aborted) return resolve();
        io.signal.addEventListener("abort", () => resolve(), { once: true });
      });
      try {
        await Promise.race([running.closed, stopped]);
        await running.close();
      } finally {
        process.off("unhandledRejection", onRejection);
      }
    },
  };
}
