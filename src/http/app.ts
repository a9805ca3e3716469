import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ApiContext } from "./context.js";
import { HttpError } from "./errors.js";
import { handleMcp } from "./mcp.js";
import { openApiDocument } from "./openapi.js";
import { mount } from "./route.js";
import { codeRoutes } from "./routes/code.js";
import { queryRoutes } from "./routes/query.js";
import { repoRoutes } from "./routes/repos.js";
import { mountEvents, serverRoutes } from "./routes/server.js";
import { gate, type SecurityOptions } from "./security.js";
import type { UiAssets } from "./ui-assets.js";

export const API_PREFIX = "/api/v1";
/** The largest request body accepted (a task of 100,000 characters fits, with room). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** What pages of the UI may load and reach: this server only, nothing inline, nothing framed. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

export interface AppOptions {
  security: SecurityOptions;
  ui: UiAssets;
  /** Counts the requests in flight (see {@link InFlight}). */
  inFlight?: InFlight;
}

/**
 * The HTTP server's application: the REST API under `/api/v1` (and its OpenAPI document), MCP over
 * Streamable HTTP at `/mcp`, and the web UI at `/`, behind one gate (Host, Origin, token) and one
 * error shape. Every handler is a thin adapter over the workspace.
 */
export function createApp(ctx: ApiContext, options: AppOptions): Hono {
  const app = new Hono();
  const routes = [...serverRoutes(ctx), ...queryRoutes(ctx), ...repoRoutes(ctx), ...codeRoutes(ctx)];
  const openapi = openApiDocument(routes, API_PREFIX, ctx.version);

  app.onError((error, c) => {
    const err = HttpError.from(error);
    // A client that went away (ABORTED) is not the server's error.
    if (err.status >= 500 && err.code !== "ABORTED") {
      const detail = err.detail instanceof Error ? (err.detail.stack ?? err.detail.message) : err.detail === undefined ? err.message : String(err.detail);
      ctx.log(`contextsmith: ${c.req.method} ${c.req.path}: ${err.code}: ${detail}`);
    }
    if (err.code === "METHOD_NOT_ALLOWED" && err.data?.allow) c.header("Allow", String(err.data.allow));
    return c.json(err.body(), err.status as 500);
  });
  app.notFound((c) => c.json(new HttpError("NOT_FOUND", `No ${c.req.method} ${c.req.path} here: see ${API_PREFIX}/openapi.json.`).body(), 404));

  app.use("*", async (c, next) => {
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
    c.header("Cache-Control", c.res.headers.get("Cache-Control") ?? "no-store");
  });
  if (options.inFlight) app.use("*", options.inFlight.middleware);
  app.use("*", gate(options.security));
  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new HttpError("PAYLOAD_TOO_LARGE", `The request body is over ${MAX_BODY_BYTES / 1024} KiB.`);
      },
    }),
  );

  app.get(`${API_PREFIX}/openapi.json`, (c) => c.json(openapi));
  mount(app, API_PREFIX, routes);
  mountEvents(app, API_PREFIX, ctx);
  // Stateless: no session to stream to or to end, so only POST carries messages.
  app.post("/mcp", (c) => handleMcp(c.req.raw, ctx));
  app.all("/mcp", (c) => {
    throw new HttpError("METHOD_NOT_ALLOWED", `${c.req.method} /mcp: this server's MCP endpoint is stateless; send JSON-RPC with POST.`, { allow: "POST" });
  });

  const page = options.ui.get("index.html");
  app.get("/", (c) => {
    if (!page) throw new HttpError("NOT_FOUND", "The web UI is not built into this copy: run `npm run build`. The REST API is at /api/v1.");
    return c.body(page.body as Uint8Array<ArrayBuffer>, 200, { "Content-Type": page.type, "Content-Security-Policy": CSP, "Cache-Control": "no-cache" });
  });
  app.get("/ui/:file", (c) => {
    const asset = options.ui.get(c.req.param("file"));
    if (!asset || c.req.param("file") === "index.html") throw new HttpError("NOT_FOUND", `No UI file ${c.req.param("file")}.`);
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, { "Content-Type": asset.type, "Content-Security-Policy": CSP, "Cache-Control": "no-cache" });
  });
  // Anything else on the API answers with the one error shape; a wrong method is said as such.
  app.all(`${API_PREFIX}/*`, (c) => {
    const path = c.req.path.slice(API_PREFIX.length);
    const allow = [...new Set(routes.filter((r) => matches(r.path, path)).map((r) => r.method.toUpperCase()))];
    if (allow.length > 0) throw new HttpError("METHOD_NOT_ALLOWED", `${c.req.method} ${c.req.path}: use ${allow.join(" or ")}.`, { allow: allow.join(", ") });
    throw new HttpError("NOT_FOUND", `No ${c.req.method} ${c.req.path} here: see ${API_PREFIX}/openapi.json.`);
  });
  return app;
}

/**
 * Counts the requests being answered, so that a server closing waits for them before it closes the
 * indexes they read (an index closed under a query must not be taken for a damaged one).
 */
export class InFlight {
  #count = 0;
  #idle: Array<() => void> = [];

  readonly middleware = async (_c: unknown, next: () => Promise<void>): Promise<void> => {
    this.#count++;
    try {
      await next();
    } finally {
      if (--this.#count === 0) this.#idle.splice(0).forEach((resolve) => resolve());
    }
  };

  /** Resolves when no request is being answered, or after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.#idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** Whether a concrete path fits a route's pattern (for telling a wrong method from a wrong path). */
function matches(pattern: string, path: string): boolean {
  const re = new RegExp(`^${pattern.replace(/:[A-Za-z_]+\{\.\+\}/g, ".+").replace(/:[A-Za-z_]+/g, "[^/]+")}$`);
  return re.test(path);
}
