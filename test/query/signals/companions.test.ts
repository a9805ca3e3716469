import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../../../src/engine.js";
import { counterparts } from "../../../src/query/signals/declarations.js";
import { PathIndex } from "../../../src/store/path-index.js";
import { TempRepo } from "../../helpers/repo.js";

/**
 * The two neighbour signals for what a fix changes beside its file: the declarations kept next to
 * a source (by the language's naming) and the release notes the project writes with its changes
 * (by its history). A real git repository, a real index.
 */
let repo: TempRepo;
let engine: Engine;

beforeAll(async () => {
  repo = TempRepo.create(
    {
      "lib/compress.c": "int compress_frame(int level) { return level * 2; }\n",
      "lib/compress.h": "int compress_frame(int level);\n",
      "lib/decode.c": "int decode_block(int size) { return size; }\n",
      "include/dom/element.h": "struct element { int tape_index; };\n",
      "include/inline/element.h": "inline int element_tape(struct element e) { return e.tape_index; }\n",
      "CHANGELOG.md": "# Changelog\n\n## Unreleased\n",
      "README.md": "# Compressor\n",
    },
    { git: true },
  );
  // compress.c changes with the changelog in all 3 of its commits; decode.c in 1 of its 11 (the first).
  repo.write({ "lib/compress.c": "int compress_frame(int level) { return level * 3; }\n", "CHANGELOG.md": "# Changelog\n\n- faster frames\n" });
  repo.commitAll("Compress frames faster");
  repo.write({ "lib/compress.c": "int compress_frame(int level) { return level * 4; }\n", "CHANGELOG.md": "# Changelog\n\n- faster frames\n- even faster\n" });
  repo.commitAll("Compress frames even faster");
  for (let i = 0; i < 10; i++) {
    repo.write({ "lib/decode.c": `int decode_block(int size) { return size + ${i}; }\n` });
    repo.commitAll(`Decode blocks, take ${i}`);
  }
  engine = new Engine(repo.root, { jobs: 1 });
  await engine.index();
});
afterAll(async () => {
  await engine.close();
  repo.dispose();
});

/** The files a neighbour signal brings, seeded by the references signal from what the task names. */
async function neighbours(name: "declarations" | "changelog", task: string): Promise<string[]> {
  const weights = { lexical: 0, symbols: 0, semantic: 0, exactName: 0, history: 0, references: 1, cochange: 0, callgraph: 0, centrality: 0, declarations: 0, changelog: 0, [name]: 1 };
  const { files } = await engine.rank(task, { refresh: false, ranking: { weights, testPenalty: 1, docPenalty: 1 } });
  return files.filter((f) => f.signals[name]).map((f) => f.path);
}

describe("neighbour signals for what changes beside a file", () => {
  it("declarations: a C source brings its header, a header its inline definitions", async () => {
    expect(await neighbours("declarations", "crash in lib/compress.c")).toEqual(["lib/compress.h"]);
    expect(await neighbours("declarations", "wrong tape in include/dom/element.h")).toEqual(["include/inline/element.h"]);
    // decode.c has no header.
    expect(await neighbours("declarations", "crash in lib/decode.c")).toEqual([]);
  });

  it("changelog: the release notes a file's commits keep changing, not those it rarely touches", async () => {
    const [hit] = (await engine.rank("crash in lib/compress.c", { refresh: false, ranking: { weights: { changelog: 1 } } })).files.filter((f) => f.signals.changelog);
    expect(hit?.path).toBe("CHANGELOG.md");
    expect(hit?.signals.changelog?.evidence).toBe("changed with lib/compress.c in 100% of its commits");
    expect(await neighbours("changelog", "crash in lib/decode.c")).toEqual([]);
  });
});

describe("counterparts", () => {
  const paths = new PathIndex([
    "src/catch2/internal/catch_list.cpp",
    "include/catch2/internal/catch_list.hpp",
    "include/simdjson/generic/ondemand/document.h",
    "include/simdjson/generic/ondemand/document-inl.h",
    "a/config.h",
    "b/deep/er/config.h",
    "lib/index.js",
    "lib/index.d.ts",
    "pkg/mod.py",
    "pkg/mod.pyi",
  ]);
  const of = (path: string): string[] => counterparts(path, paths).map((c) => c.path);

  it("pairs sources, headers, inline headers, .d.ts and .pyi both ways", () => {
    expect(of("src/catch2/internal/catch_list.cpp")).toEqual(["include/catch2/internal/catch_list.hpp"]);
    expect(of("include/catch2/internal/catch_list.hpp")).toEqual(["src/catch2/internal/catch_list.cpp"]);
    expect(of("include/simdjson/generic/ondemand/document.h")).toEqual(["include/simdjson/generic/ondemand/document-inl.h"]);
    expect(of("include/simdjson/generic/ondemand/document-inl.h")).toEqual(["include/simdjson/generic/ondemand/document.h"]);
    expect(of("lib/index.js")).toEqual(["lib/index.d.ts"]);
    expect(of("lib/index.d.ts")).toEqual(["lib/index.js"]);
    expect(of("pkg/mod.py")).toEqual(["pkg/mod.pyi"]);
  });

  it("takes a header of the same name elsewhere only when it is near", () => {
    expect(of("a/config.h")).toEqual([]);
  });
});
