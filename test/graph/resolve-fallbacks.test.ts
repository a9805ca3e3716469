import { describe, expect, it } from "vitest";
import type { ParsedFile, SymbolInfo } from "../../src/core/types.js";
import { ModuleResolver } from "../../src/graph/modules.js";
import { FallbackAnswers, Resolver, type ResolveSource } from "../../src/graph/resolve.js";

function fn(name: string, line: number): SymbolInfo {
  return { name, qualifiedName: name, kind: "function", signature: `def ${name}():`, doc: "", startLine: line, endLine: line + 1, parent: -1 };
}

/** `lib/*.py` define `helper` (once) and `shared` (in two files); each `app/*.py` calls both, with no import. */
const SYMBOLS: Record<string, SymbolInfo[]> = {
  "lib/one.py": [fn("helper", 1), fn("shared", 4)],
  "lib/two.py": [fn("shared", 1)],
  "app/b.py": [fn("run", 1)],
  "app/c.py": [fn("main", 1)],
};

function caller(path: string): ParsedFile {
  return { symbols: SYMBOLS[path]!, calls: [{ caller: 0, callee: "helper", receiver: "", line: 2 }, { caller: 0, callee: "shared", receiver: "", line: 3 }], imports: [], hasErrors: false };
}

/** An in-memory index that counts its definers look-ups. */
function source(): ResolveSource & { lookups: string[] } {
  const lookups: string[] = [];
  return {
    lookups,
    modules: new ModuleResolver(Object.keys(SYMBOLS)),
    symbols: (path) => SYMBOLS[path] ?? [],
    imports: () => [],
    language: (path) => (path.endsWith(".py") ? "python" : null),
    definers(name) {
      lookups.push(name);
      return Object.keys(SYMBOLS).filter((path) => SYMBOLS[path]!.some((s) => s.name === name)).sort();
    },
  };
}

describe("Resolver: the fallback's answers", () => {
  it("are shared by the resolvers of a stage: a later resolver answers a name without reading its definers again, the same as a fresh one", () => {
    const shared = new FallbackAnswers();
    const first = source();
    const b = new Resolver(first, shared).resolveFile("app/b.py", "python", caller("app/b.py"));
    const second = source();
    const c = new Resolver(second, shared).resolveFile("app/c.py", "python", caller("app/c.py"));
    const fresh = new Resolver(source()).resolveFile("app/c.py", "python", caller("app/c.py"));

    expect(first.lookups).toEqual(["helper", "shared"]);
    expect(second.lookups).toEqual([]);
    expect(c).toEqual(fresh);
    expect(b.calls.map((call) => [call.callee, call.how, call.targets])).toEqual([
      ["helper", "unique", [["lib/one.py", 0]]],
      ["shared", "ambiguous", [["lib/one.py", 1], ["lib/two.py", 0]]],
    ]);
    // What a file's answers read is still its own: the files that define what it calls.
    expect(c.deps).toEqual(["lib/one.py", "lib/two.py"]);
    expect(c.refs).toEqual(["helper", "shared"]);
  });

  it("are dropped past their limit and found again", () => {
    const shared = new FallbackAnswers(1);
    const first = source();
    new Resolver(first, shared).resolveFile("app/b.py", "python", caller("app/b.py"));
    const second = source();
    const c = new Resolver(second, shared).resolveFile("app/c.py", "python", caller("app/c.py"));
    // One answer kept at a time: `helper` was dropped for `shared`, and `shared` for `helper` again.
    expect(second.lookups).toEqual(["helper", "shared"]);
    expect(c).toEqual(new Resolver(source()).resolveFile("app/c.py", "python", caller("app/c.py")));
  });
});
