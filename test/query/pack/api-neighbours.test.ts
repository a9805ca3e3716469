import { describe, expect, it } from "vitest";
import { linkApi } from "../../../src/graph/api-links.js";
import { withApiNeighbours } from "../../../src/query/pack/api-neighbours.js";
import type { PackEntry, PackSource } from "../../../src/query/pack/pack-ranking.js";

const source = (name: string): PackSource => ({ termWeights: new Map(), text: () => null, symbols: () => undefined, focus: () => [], name } as unknown as PackSource);
const web = source("web");
const api = source("api");
const entry = (repo: string, path: string, src: PackSource): PackEntry => ({ file: { path, score: 1, signals: {} }, source: src, repo });

// web's login form posts to api's /auth/login, served by `login` in src/auth.ts (the route is declared in src/routes.ts).
const map = linkApi([
  { repo: "web", routes: [], calls: [{ method: "POST", url: "/auth/login", pattern: "/auth/login", file: "src/login.ts", line: 3, symbol: "submitLogin" }] },
  {
    repo: "api",
    routes: [
      { method: "POST", path: "/auth/login", pattern: "/auth/login", file: "src/routes.ts", line: 7, handler: "login", handlerFile: "src/auth.ts", handlerLine: 12 },
      { method: "GET", path: "/{}", pattern: "/{}", file: "src/routes.ts", line: 9, handler: "anything", handlerFile: "src/any.ts", handlerLine: 1 },
    ],
    calls: [],
  },
]);

describe("the other side of the API contract in a pack", () => {
  it("after a requesting file, the handler its request reaches, focused on the handler; a side not packed is left out", () => {
    const out = withApiNeighbours([entry("web", "src/login.ts", web), entry("web", "src/cart.ts", web)], map, (repo) => (repo === "api" ? api : undefined));
    expect(out.map((e) => [e.repo, e.file.path, e.focus ?? [], e.note ?? ""])).toEqual([
      ["web", "src/login.ts", [], ""],
      ["api", "src/auth.ts", [12], "API: POST /auth/login is served by login"],
      ["web", "src/cart.ts", [], ""],
    ]);
    expect(out[1]!.source).toBe(api);
    // Placed by the link, not by the fusion (its worth in the pack is its rank's alone).
    expect(out.map((e) => e.linked ?? false)).toEqual([false, true, false]);
    // The repository of the other side is not in the scope: nothing is added.
    expect(withApiNeighbours([entry("web", "src/login.ts", web)], map, (repo) => (repo === "web" ? web : undefined))).toHaveLength(1);
  });

  it("after a handler's file, the requests that reach it; a side already ranked keeps its place and gains the focus and the note", () => {
    const inserted = withApiNeighbours([entry("api", "src/auth.ts", api)], map, (repo) => (repo === "web" ? web : undefined));
    expect(inserted.map((e) => [e.repo, e.file.path, e.focus ?? [], e.note ?? ""])).toEqual([
      ["api", "src/auth.ts", [], ""],
      ["web", "src/login.ts", [3], "API: submitLogin requests POST /auth/login"],
    ]);
    const ranked = withApiNeighbours([entry("api", "src/auth.ts", api), entry("api", "src/x.ts", api), entry("web", "src/login.ts", web)], map, () => web);
    expect(ranked.map((e) => [e.file.path, e.focus ?? [], e.note ?? ""])).toEqual([
      ["src/auth.ts", [12], "API: POST /auth/login is served by login"],
      ["src/x.ts", [], ""],
      ["src/login.ts", [3], "API: submitLogin requests POST /auth/login"],
    ]);
  });

  it("only the best-ranked files bring their other side, and not through a doubtful link", () => {
    const far = [entry("web", "a.ts", web), entry("web", "b.ts", web), entry("web", "c.ts", web), entry("web", "src/login.ts", web)];
    expect(withApiNeighbours(far, map, () => api)).toHaveLength(4);
    // A prefix taken off the route (0.6) is too doubtful a link to spend a place on.
    const doubtful = linkApi([
      { repo: "web", routes: [], calls: [{ method: "GET", url: "/tags", pattern: "/tags", file: "src/tags.ts", line: 1, symbol: "tags" }] },
      { repo: "api", routes: [{ method: "GET", path: "/v9/tags", pattern: "/v9/tags", file: "src/tags.ts", line: 2, handler: "list", handlerFile: "src/tags.ts", handlerLine: 2 }], calls: [] },
    ]);
    expect(doubtful.calls[0]!.targets.map((t) => t.confidence)).toEqual([0.6]);
    expect(withApiNeighbours([entry("web", "src/tags.ts", web)], doubtful, () => api)).toHaveLength(1);
  });

  it("within one repository the entries carry no repository, and neither do the sides added", () => {
    const mono = linkApi([{ repo: "shop", routes: [{ method: "GET", path: "/users/:id", pattern: "/users/{}", file: "server/users.ts", line: 3, handler: "getUser", handlerFile: "server/users.ts", handlerLine: 4 }], calls: [{ method: "GET", url: "/users/{}", pattern: "/users/{}", file: "client/users.ts", line: 2, symbol: "loadUser" }] }]);
    const out = withApiNeighbours([{ file: { path: "client/users.ts", score: 1, signals: {} }, source: web }], mono, () => web, "shop");
    expect(out.map((e) => [e.repo, e.file.path, e.focus])).toEqual([[undefined, "client/users.ts", undefined], [undefined, "server/users.ts", [4]]]);
  });

  it("a side among the files that are only named comes right after the file linking to it, packed whole; a named file brings no sides", () => {
    const named = (e: PackEntry): PackEntry => ({ ...e, coverOnly: true });
    const out = withApiNeighbours([entry("api", "src/auth.ts", api), entry("api", "src/x.ts", api), named(entry("api", "src/y.ts", api)), named(entry("web", "src/login.ts", web))], map, () => web);
    expect(out.map((e) => [e.file.path, e.coverOnly ?? false, e.linked ?? false, e.focus ?? []])).toEqual([
      ["src/auth.ts", false, false, []],
      ["src/login.ts", false, true, [3]],
      ["src/x.ts", false, false, []],
      ["src/y.ts", true, false, []],
    ]);
    // The handler's file, only named, does not bring the request that reaches it.
    expect(withApiNeighbours([named(entry("api", "src/auth.ts", api))], map, () => web)).toHaveLength(1);
  });
});
