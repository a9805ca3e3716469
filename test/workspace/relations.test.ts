import { describe, expect, it } from "vitest";
import { ContextSmithError } from "../../src/core/errors.js";
import { addEdge, expandScope, reach } from "../../src/workspace/relations.js";

describe("the dependency graph", () => {
  const chain = addEdge(addEdge(addEdge([], "web", "auth"), "auth", "schema"), "billing", "schema");

  it("refuses the edge that closes a cycle, naming the cycle", () => {
    let error: unknown;
    try {
      addEdge(chain, "schema", "web");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ContextSmithError);
    expect((error as ContextSmithError).code).toBe("DEPENDENCY_CYCLE");
    expect((error as ContextSmithError).message).toContain("schema → web → auth → schema");
    expect((error as ContextSmithError).data).toEqual({ cycle: ["schema", "web", "auth", "schema"] });
    expect(() => addEdge(chain, "web", "web")).toThrow(/cannot depend on itself/);
  });

  it("adds an edge once", () => {
    expect(addEdge(chain, "web", "auth")).toEqual(chain);
    expect(addEdge(chain, "web", "schema")).toHaveLength(4);
  });

  it("reaches dependencies and dependents with the fewest hops", () => {
    expect(Object.fromEntries(reach(chain, "web", "upstream"))).toEqual({ auth: 1, schema: 2 });
    expect(Object.fromEntries(reach(chain, "schema", "downstream"))).toEqual({ auth: 1, billing: 1, web: 2 });
    expect(Object.fromEntries(reach(chain, "schema", "downstream", 1))).toEqual({ auth: 1, billing: 1 });
  });

  it("expands a scope by direction and depth, with provenance", () => {
    expect(expandScope(chain, ["auth"], undefined, 1)).toEqual([{ repo: "auth", relation: "primary", hops: 0 }]);
    expect(expandScope(chain, ["web"], "upstream", 1)).toEqual([
      { repo: "web", relation: "primary", hops: 0 },
      { repo: "auth", relation: "expanded", direction: "upstream", hops: 1 },
    ]);
    expect(expandScope(chain, ["web"], "upstream", 2).map((p) => [p.repo, p.hops])).toEqual([["web", 0], ["auth", 1], ["schema", 2]]);
    expect(expandScope(chain, ["auth"], "both", 1)).toEqual([
      { repo: "auth", relation: "primary", hops: 0 },
      { repo: "schema", relation: "expanded", direction: "upstream", hops: 1 },
      { repo: "web", relation: "expanded", direction: "downstream", hops: 1 },
    ]);
    // A primary repository is never listed again as expanded.
    expect(expandScope(chain, ["web", "auth"], "upstream", 3).map((p) => p.repo)).toEqual(["web", "auth", "schema"]);
    expect(expandScope(chain, ["schema"], "downstream", 0)).toHaveLength(1);
  });
});
