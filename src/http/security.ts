import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { HttpError } from "./errors.js";

/** Who may talk to the server. */
export interface SecurityOptions {
  /** The address the server is bound to. */
  host: string;
  /** Required on every request when set: `Authorization: Bearer …`, or the cookie the UI's login sets. */
  token: string | null;
  /** Origins allowed to call the API from a browser (CORS); none by default. */
  corsOrigins: readonly string[];
}

/** The cookie that carries the token for the web UI (set by opening `/?token=…`). */
export const TOKEN_COOKIE = "ctxsmith_token";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1"]);

/** Whether `host` is a loopback address or name (what the server may bind to without a token). */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (LOOPBACK_NAMES.has(bare) || bare.endsWith(".localhost")) return true;
  return isIP(bare) === 4 && bare.startsWith("127.");
}

/**
 * The server's gate, before any route:
 * - the `Host` header must name this server (a loopback name, or the address it is bound to): a
 *   DNS-rebinding name pointed at 127.0.0.1 is refused (403);
 * - an `Origin` header must be this server's own origin, or one configured for CORS: a page of
 *   another site (or of another local server) cannot drive it from a visitor's browser (403);
 * - with a token, every request must carry it (401), compared in constant time.
 */
export function gate(options: SecurityOptions): MiddlewareHandler {
  const boundName = options.host.replace(/^\[|\]$/g, "").toLowerCase();
  const hostAllowed = (name: string): boolean => isLoopback(name) || name === boundName;
  const expected = options.token === null ? null : Buffer.from(options.token);
  return async (c, next) => {
    const host = c.req.header("host");
    const hostName = host ? hostnameOf(host) : null;
    // With a token, a rebinding name gains nothing: the browser sends it no token.
    if (!hostName || (!expected && !hostAllowed(hostName))) {
      throw new HttpError("FORBIDDEN", `The Host header ${JSON.stringify(host ?? "")} does not name this server.`);
    }
    const origin = c.req.header("origin");
    const cors = origin !== undefined && options.corsOrigins.includes(origin);
    if (origin !== undefined && !cors && !sameOrigin(origin, host!)) {
      throw new HttpError("FORBIDDEN", `Requests from ${origin} are not allowed: only this server's own pages (or origins given with --cors) may call it.`);
    }
    if (cors) {
      c.header("Access-Control-Allow-Origin", origin);
      c.header("Vary", "Origin");
      if (c.req.method === "OPTIONS") {
        c.header("Access-Control-Allow-Methods", "GET, POST, DELETE");
        c.header("Access-Control-Allow-Headers", "Authorization, Content-Type, Mcp-Session-Id, Mcp-Protocol-Version");
        c.header("Access-Control-Max-Age", "600");
        return c.body(null, 204);
      }
    }
    if (expected && c.req.method === "GET" && c.req.path === "/" && c.req.query("token") !== undefined) {
      // The web UI's login: the token goes into a cookie only this server's pages send, and out of the address bar.
      if (!matches(c.req.query("token")!, expected)) throw new HttpError("UNAUTHORIZED", "That is not this server's token.");
      setCookie(c, TOKEN_COOKIE, c.req.query("token")!, { httpOnly: true, sameSite: "Strict", path: "/" });
      return c.redirect("/", 303);
    }
    if (expected && !authorized(c, expected)) {
      throw new HttpError("UNAUTHORIZED", "This server needs its token: send `Authorization: Bearer <token>`, or open /?token=<token> once in the browser.");
    }
    await next();
  };
}

function authorized(c: Context, expected: Buffer): boolean {
  const header = c.req.header("authorization");
  const bearer = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const given = bearer ?? getCookie(c, TOKEN_COOKIE);
  return given !== undefined && matches(given, expected);
}

/** Compares digests, so that neither the token's bytes nor its length show in the time taken. */
function matches(given: string, expected: Buffer): boolean {
  return timingSafeEqual(digest(Buffer.from(given)), digest(expected));
}

function digest(bytes: Buffer): Buffer {
  return createHash("sha256").update(bytes).digest();
}

/** Whether `origin` is the origin of the page that the request's own `Host` names (checked above). */
function sameOrigin(origin: string, host: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === "http:" || url.protocol === "https:") && url.host === new URL(`http://${host}`).host;
}

function hostnameOf(host: string): string | null {
  try {
    return new URL(`http://${host}`).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return null;
  }
}
