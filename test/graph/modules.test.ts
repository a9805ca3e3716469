import { describe, expect, it } from "vitest";
import type { ImportInfo } from "../../src/core/types.js";
import { ModuleResolver } from "../../src/graph/modules.js";

const use = (module: string, names: string[] = []): ImportInfo => ({ module, names: names.map((name) => ({ name, alias: "" })), alias: "", line: 1 }) as ImportInfo;

// Lookups by folder tail (a Rust crate of the workspace, a Java wildcard import, a Go package) read
// an index of folders by their last segments: the same answers as a scan of every folder.
describe("ModuleResolver: folders by tail", () => {
  const modules = new ModuleResolver([
    "app/src/main.rs",
    "vendor/my-crate/src/lib.rs",
    "crates/my_crate/src/lib.rs",
    "crates/my_crate/src/parse.rs",
    "other/src/lib.rs",
    "java/src/com/acme/util/A.java",
    "java/src/com/acme/util/B.java",
    "legacy/com/acme/util/C.java",
    "java/src/com/acme/utility/D.java",
    "go/internal/store/db.go",
    "go/internal/store/db_test.go",
    "go/pkg/xstore/x.go",
  ].sort()); // in path order, as the store lists them

  it("finds another crate of the workspace by its name, `_` or `-`, the first folder in path order", () => {
    expect(modules.resolve("app/src/main.rs", "rust", use("my_crate::parse"))).toEqual(["crates/my_crate/src/parse.rs"]);
    expect(modules.resolve("app/src/main.rs", "rust", use("my_crate"))).toEqual(["crates/my_crate/src/lib.rs"]);
    expect(modules.resolve("app/src/main.rs", "rust", use("other::x"))).toEqual(["other/src/lib.rs"]);
    expect(modules.resolve("app/src/main.rs", "rust", use("serde::Deserialize"))).toEqual([]);
  });

  it("brings every class of a package for a wildcard import, under any root, and no folder that only ends alike", () => {
    expect(modules.resolve("x/Main.java", "java", use("com.acme.util", ["*"]))).toEqual(["java/src/com/acme/util/A.java", "java/src/com/acme/util/B.java", "legacy/com/acme/util/C.java"]);
  });

  it("finds a Go package by the longest tail of its import path, without its tests", () => {
    expect(modules.resolve("go/cmd/main.go", "go", use("example.com/m/internal/store"))).toEqual(["go/internal/store/db.go"]);
    expect(modules.resolve("go/cmd/main.go", "go", use("example.com/m/store"))).toEqual(["go/internal/store/db.go"]);
  });

  it("gives a file's siblings of its own language family, the same list each time", () => {
    expect(modules.siblings("go/internal/store/db.go")).toEqual(["go/internal/store/db.go", "go/internal/store/db_test.go"]);
    expect(modules.siblings("go/internal/store/db.go")).toBe(modules.siblings("go/internal/store/db_test.go"));
  });
});
