import { describe, expect, it } from "vitest";
import { ContextSmithError } from "../../src/core/errors.js";
import { HttpError } from "../../src/http/errors.js";
import { isLoopback } from "../../src/http/security.js";
import { parseListen } from "../../src/http/server.js";

describe("the HTTP server's inputs", () => {
  it("reads [HOST:]PORT", () => {
    expect(parseListen("")).toEqual({ host: "127.0.0.1", port: 8000 });
    expect(parseListen("9000")).toEqual({ host: "127.0.0.1", port: 9000 });
    expect(parseListen("0.0.0.0:80")).toEqual({ host: "0.0.0.0", port: 80 });
    expect(parseListen("[::1]:8080")).toEqual({ host: "::1", port: 8080 });
    for (const bad of ["http://x:1", "x:", ":80", "65536", "a b:1", "::1:80"]) expect(() => parseListen(bad), bad).toThrow(/HOST:\]PORT/);
  });

  it("knows loopback from the rest", () => {
    for (const host of ["127.0.0.1", "127.3.2.1", "localhost", "LOCALHOST", "::1", "[::1]", "app.localhost"]) expect(isLoopback(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "10.0.0.5", "example.com", "localhost.example.com", "128.0.0.1"]) expect(isLoopback(host), host).toBe(false);
  });

  it("maps the project's errors to statuses; a bug's text stays in the log", () => {
    expect(HttpError.from(new ContextSmithError("DEPENDENCY_CYCLE", "a → b → a", { cycle: ["a", "b", "a"] })).status).toBe(409);
    expect(HttpError.from(new ContextSmithError("BUSY", "in use")).status).toBe(409);
    expect(HttpError.from(new ContextSmithError("NOT_FOUND", "no")).status).toBe(404);
    expect(HttpError.from(new ContextSmithError("LOCKED", "held")).status).toBe(503);
    const bug = HttpError.from(new TypeError("Cannot read properties of undefined (reading 'x') at /home/me/secret/path.ts"));
    expect(bug.status).toBe(500);
    expect(bug.body()).toEqual({ error: { code: "INTERNAL", message: "An internal error occurred: the server's log has the details. Please report it." } });
    expect(bug.detail).toBeInstanceOf(TypeError);
  });
});
