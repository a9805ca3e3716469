import { realpathSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { basename, join } from "node:path";
import { serve as listen, type ServerType } from "@hono/node-server";
import type { Hono } from "hono";
import { resolveConfig } from "../core/config.js";
import { ContextSmithError } from "../core/errors.js";
import { watchInBackground } from "../watch/workspace.js";
import { hostWorkspace, type HostedWorkspace } from "../workspace/host.js";
import { SingleRepoRegistry } from "../workspace/registry.js";
import type { WorkspaceOptions } from "../workspace/workspace.js";
import { createApp, InFlight } from "./app.js";
import type { ApiContext } from "./context.js";
import { Jobs } from "./jobs.js";
import { isLoopback } from "./security.js";
import { defaultUiDir, loadUiAssets } from "./ui-assets.js";

export const DEFAULT_HTTP = "127.0.0.1:8000";

export interface ServeHttpOptions extends Pick<WorkspaceOptions, "dataDir" | "engine"> {
  /** `[HOST:]PORT` (default 127.0.0.1:8000; port 0: any free port). */
  listen?: string;
  /** Serve the workspace of the data folder; otherwise the one repository at `root`. */
  workspace: boolean;
  root?: string;
  /** Required on every request when set; required to bind off loopback. */
  token?: string | null;
  /** Origins allowed to call the API from a browser (CORS). */
  corsOrigins?: readonly string[];
  allowMultiInstance?: boolean;
  /** Where the built web UI is (default: `dist/ui`). */
  uiDir?: string | null;
  version?: string;
  log?: (line: string) => void;
  /** Watch the repositories' files and commits and index as they change (see watch/workspace.ts). */
  watch?: boolean;
}

export interface RunningHttpServer {
  /** `http://host:port`, as the server was reached from this machine. */
  url: string;
  port: number;
  ctx: ApiContext;
  /** The application itself (`app.request()` answers without a socket). */
  app: Hono;
  close(): Promise<void>;
}

/** `[HOST:]PORT` → host and port. @throws ContextSmithError `INVALID_ARGUMENT` */
export function parseListen(value: string): { host: string; port: number } {
  const text = value.trim() === "" ? DEFAULT_HTTP : value.trim();
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(text);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) throw new ContextSmithError("INVALID_ARGUMENT", `--http takes [HOST:]PORT (like 8000, 127.0.0.1:8000 or [::1]:8000), not "${value}".`);
  return { host: (match[1] ?? "127.0.0.1").replace(/^\[|\]$/g, ""), port };
}

/**
 * `ctxsmith serve --http`: the REST API, the web UI and MCP over Streamable HTTP from one process,
 * over the workspace (`workspace: true`) or over one repository. Binds to loopback unless told
 * otherwise, and then only with a token.
 */
export async function serveHttp(options: ServeHttpOptions): Promise<RunningHttpServer> {
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const { host, port } = parseListen(options.listen ?? DEFAULT_HTTP);
  const token = options.token ?? null;
  if (token !== null && token.length < 16) throw new ContextSmithError("INVALID_ARGUMENT", "The token must be at least 16 characters (try `openssl rand -hex 24`).");
  if (!isLoopback(host) && token === null) {
    throw new ContextSmithError("INVALID_ARGUMENT", `Binding to ${host} exposes your code beyond this machine: give a token with --token or CTXSMITH_TOKEN (every request must then carry it), or bind to 127.0.0.1.`);
  }
  const hosted = await hostFor(options, log);
  const ctx: ApiContext = { workspace: hosted.workspace, jobs: new Jobs(), editable: options.workspace, version: options.version ?? "0.0.0", log };
  const inFlight = new InFlight();
  let app: Hono;
  let server: ServerType;
  try {
    app = createApp(ctx, { security: { host, token, corsOrigins: options.corsOrigins ?? [] }, ui: loadUiAssets(options.uiDir === undefined ? defaultUiDir() : options.uiDir), inFlight });
    server = await new Promise<ServerType>((resolve, reject) => {
      const s = listen({ fetch: app.fetch, hostname: host, port }, () => resolve(s));
      s.once("error", (error: NodeJS.ErrnoException) =>
        reject(
          error.code === "EADDRINUSE"
            ? new ContextSmithError("INVALID_ARGUMENT", `${host}:${port} is in use: stop what listens there, or pick another port with --http.`)
            : error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND"
              ? new ContextSmithError("INVALID_ARGUMENT", `${host} is not an address of this machine.`)
              : ContextSmithError.from(error, "IO_ERROR"),
        ),
      );
    });
  } catch (error) {
    await ctx.jobs.close();
    await hosted.close();
    throw error;
  }
  const bound = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${bound}`;
  log(`contextsmith: serving ${options.workspace ? `the workspace ${hosted.workspace.dataDir}` : hosted.workspace.repos()[0]!.path} at ${url} (REST ${url}/api/v1, MCP ${url}/mcp)${token ? " — every request needs the token" : ""}`);
  const watching = options.watch ? watchInBackground(hosted.workspace, log) : null;
  if (watching) ctx.pending = watching.changedSince;
  return {
    url,
    port: bound,
    ctx,
    app,
    async close() {
      await watching?.close();
      const http = server as ServerType & { closeIdleConnections?: () => void; closeAllConnections?: () => void };
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeIdleConnections?.();
      // The answers being made finish before the indexes they read are closed; event streams do not hold the shutdown.
      await inFlight.drained(10_000);
      http.closeAllConnections?.();
      await closed;
      await ctx.jobs.close();
      await hosted.close();
    },
  };
}

/** The workspace to serve: the data folder's, or one repository's. */
function hostFor(options: ServeHttpOptions, log: (line: string) => void): Promise<HostedWorkspace> {
  const hostOptions = { dataDir: options.dataDir, engine: options.engine, allowMultiInstance: options.allowMultiInstance, log };
  if (options.workspace) return hostWorkspace(hostOptions);
  const config = resolveConfig(options.root ?? ".", {});
  let path: string;
  try {
    path = realpathSync(config.root);
  } catch {
    throw new ContextSmithError("PATH_NOT_FOUND", `No such directory: ${config.root}`);
  }
  const name = basename(path).toLowerCase().replace(/[^a-z0-9._-]/g, "-").replace(/^[^a-z0-9]+/, "").slice(0, 64) || "repo";
  const registry = new SingleRepoRegistry(join(config.indexDir, "serve"), { name, kind: "local", path, addedAt: Date.now() });
  return hostWorkspace({ ...hostOptions, registry }, false);
}
