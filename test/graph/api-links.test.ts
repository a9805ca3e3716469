import { describe, expect, it } from "vitest";
import { canonicalPattern, linkApi, type ApiCall, type ApiRoute } from "../../src/graph/api-links.js";

const route = (method: string, path: string, extra: Partial<ApiRoute> = {}): ApiRoute => ({ method, path, pattern: canonicalPattern(path), file: "server.ts", line: 1, handler: `${method} ${path}`, ...extra });
const call = (method: string, url: string, extra: Partial<ApiCall> = {}): ApiCall => ({ method, url, pattern: canonicalPattern(url), file: "client.ts", line: 1, symbol: null, ...extra });

describe("the API contract map", () => {
  it("puts paths in one canonical form", () => {
    expect(canonicalPattern("https://api.example.com/API/Articles/?page=2#top")).toBe("/api/articles");
    expect(canonicalPattern("/articles/:slug/comments/{id}")).toBe("/articles/{}/comments/{}");
    expect(canonicalPattern("/users/<int:uid>/posts/42")).toBe("/users/{}/posts/{}");
    expect(canonicalPattern("/a/\u0000/b")).toBe("/a/{}/b");
    expect(canonicalPattern("//cdn.example.com/x")).toBe("/x");
    expect(canonicalPattern("")).toBe("/");
  });

  it("links exact paths, paths through parameters, and paths behind gateway or configured prefixes; the literal path wins", () => {
    const map = linkApi([
      { repo: "web", routes: [], calls: [call("GET", "/api/articles/feed"), call("POST", "/api/articles/x/comments"), call("GET", "/gateway/tags"), call("DELETE", "/api/user")] },
      { repo: "express", routes: [route("GET", "/api/articles/feed"), route("GET", "/api/articles/:slug"), route("POST", "/api/articles/:slug/comments"), route("GET", "/tags"), route("GET", "/api/user")], calls: [] },
      { repo: "fastapi", routes: [route("GET", "/articles/feed", { unknownPrefix: "settings.api_prefix" }), route("GET", "/articles/{slug}", { unknownPrefix: "settings.api_prefix" })], calls: [] },
    ]);
    const [feed, comment, tags, user] = map.calls;
    expect(feed!.targets.map((t) => [t.repo, t.pattern, t.confidence, t.how])).toEqual([
      ["express", "/api/articles/feed", 1, "same path"],
      ["fastapi", "/articles/feed", 0.8, "the call's /api taken as the route's configured prefix"],
    ]);
    expect(comment!.targets.map((t) => [t.repo, t.pattern, t.confidence])).toEqual([["express", "/api/articles/{}/comments", 0.9]]);
    expect(tags!.targets.map((t) => [t.repo, t.how, t.confidence])).toEqual([["express", "gateway prefix /gateway taken off the call", 0.7]]);
    expect(user!).toMatchObject({ targets: [], why: "no route for DELETE /api/user (it is served for GET)" });
    expect(map.routes.map((r) => r.repo)).toEqual(["express", "express", "express", "express", "express", "fastapi", "fastapi"]);
  });

  it("never links through parameters alone, and doubts another host or a configured base", () => {
    const map = linkApi([
      { repo: "web", routes: [], calls: [call("GET", "/login"), call("POST", "/health"), call("GET", "https://api.github.com/users/octocat", { host: "api.github.com" }), call("GET", "/users/x", { base: "process.env.API" })] },
      { repo: "api", routes: [route("GET", "/api/users/:id"), route("POST", "/api/v1/:thing"), route("GET", "/:slug")], calls: [] },
    ]);
    expect(map.calls.map((c) => c.why)).toEqual(["no route matches /login", "no route matches /health", null, null]);
    expect(map.calls[2]!.targets.map((t) => [t.pattern, t.confidence, t.how])).toEqual([["/api/users/{}", 0.45, "prefix /api taken off the route, on host api.github.com"]]);
    expect(map.calls[3]!.targets.map((t) => [t.pattern, t.confidence])).toEqual([["/api/users/{}", 0.45]]);
  });

  it("says why a call links nowhere", () => {
    const map = linkApi([{ repo: "web", routes: [route("GET", "/a")], calls: [call("GET", "/b"), call("*", "\u0001base\u0001/x", { dynamic: true }), call("*", "/a")] }]);
    expect(map.calls.map((c) => c.why)).toEqual(["no route matches /b", "the URL is computed at run time (its start is not a constant of the code)", null]);
    expect(linkApi([{ repo: "web", routes: [], calls: [call("GET", "/b")] }]).calls[0]!.why).toBe("no routes in the scope");
  });
});
