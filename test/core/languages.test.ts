import { describe, expect, it } from "vitest";
import { classifyPath, headerLanguage, isAmbiguousHeader, isReleaseNotesPath, isTestPath, isVendoredPath } from "../../src/core/languages.js";

describe("classifyPath", () => {
  it("parses source files by extension and indexes text files lexically", () => {
    expect(classifyPath("src/bytes_mut.rs")).toEqual({ kind: "parsed", language: "rust" });
    expect(classifyPath("lib/zstd.h")).toEqual({ kind: "parsed", language: "c" });
    expect(classifyPath("include/fmt/format.hpp")).toEqual({ kind: "parsed", language: "cpp" });
    expect(classifyPath("src/x.c++")).toEqual({ kind: "parsed", language: "cpp" });
    expect(classifyPath("lib/Parser.cs")).toEqual({ kind: "parsed", language: "csharp" });
    expect(classifyPath("lib/tasks/db.rake")).toEqual({ kind: "parsed", language: "ruby" });
    expect(classifyPath("Rakefile")).toEqual({ kind: "parsed", language: "ruby" });
    expect(classifyPath("scripts/ci.sh")).toEqual({ kind: "parsed", language: "bash" });
    expect(classifyPath("app/Models/User.php")).toEqual({ kind: "parsed", language: "php" });
    expect(classifyPath("build.gradle.kts")).toEqual({ kind: "parsed", language: "kotlin" });
    expect(classifyPath("src/main/scala/Foo.scala")).toEqual({ kind: "parsed", language: "scala" });
    expect(classifyPath("Sources/App/main.swift")).toEqual({ kind: "parsed", language: "swift" });
    expect(classifyPath("lib/app.dart")).toEqual({ kind: "text" });
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty", "lib/valueOf"]) expect(classifyPath(name), name).toEqual({ kind: "unsupported" });
    expect(classifyPath("Makefile")).toEqual({ kind: "text" });
    expect(classifyPath("assets/logo.png")).toEqual({ kind: "unsupported" });
  });

  it("reads .h headers as C++ only where C++ sources outnumber C sources", () => {
    expect(headerLanguage(["a.c", "b.c", "x.cpp", "y.hpp", "z.h"])).toBe("c");
    expect(headerLanguage(["a.c", "x.cpp", "y.cc"])).toBe("cpp");
    expect(headerLanguage(["x.h", "README.md"])).toBe("c");
    expect(isAmbiguousHeader("lib/zstd.h")).toBe(true);
    expect(isAmbiguousHeader("lib/zstd.hpp")).toBe(false);
  });

  it("indexes release notes whatever their extension, and only those", () => {
    for (const path of ["release-notes/VERSION-2.x", "release-notes/CREDITS-2.x", "NEWS", "CHANGES.x", "ChangeLog", "changelog.d/1234.bugfix", "HISTORY.old"]) {
      expect(classifyPath(path), path).toEqual({ kind: "text" });
    }
    for (const path of ["release-notes/deep/blob.bin", "newsletter.x", "src/exchanges.x"]) {
      expect(classifyPath(path), path).toEqual({ kind: "unsupported" });
    }
    expect(classifyPath("Cargo.lock")).toEqual({ kind: "lockfile" });
  });

  it("never takes code named like release notes for release notes", () => {
    for (const path of ["IPython/core/history.py", "sphinx/builders/changes.py", "src/news_feed.ts", "com/acme/changes/Foo.java", "lib/history.c", "NEWS.png"]) {
      expect(isReleaseNotesPath(path), path).toBe(false);
    }
    expect(isReleaseNotesPath("CHANGELOG.md")).toBe(true);
    expect(isReleaseNotesPath("release-notes/VERSION-2.x")).toBe(true);
  });
});

describe("isTestPath", () => {
  it("knows the test layouts of Python, Java, Go, Rust, JavaScript, C#, Ruby, Kotlin and Swift", () => {
    for (const path of [
      "tests/test_cart.py", "src/test/java/com/acme/CartTest.java", "cart_test.go", "tests/integration.rs", "src/cart.spec.ts",
      "src/Shop.Tests/CartTests.cs", "Shop.UnitTests/Cart.cs", "CartTest.cs", "spec/models/cart_spec.rb", "test/cart_test.rb",
      "Tests/ShopTests/CartTests.swift", "App/CartTests.swift", "app/src/jvmTest/kotlin/CartTest.kt",
    ]) {
      expect(isTestPath(path), path).toBe(true);
    }
    for (const path of ["src/main/java/com/acme/Cart.java", "src/cart.go", "src/lib.rs", "src/testing_utils_not.rs", "src/Shop.Core/Cart.cs", "lib/contest.rb", "src/Latest.java", "Sources/Shop/Contest.swift"]) {
      expect(isTestPath(path), path).toBe(false);
    }
  });
});

describe("isVendoredPath", () => {
  it("knows vendored folders and a Python package's own packages/ folder, not a monorepo's packages/", () => {
    for (const path of ["requests/packages/urllib3/response.py", "pip/_vendor/rich/text.py", "vendor/github.com/x/y.go", "third_party/zlib/zlib.h", "src/third-party/a.c", "web/node_modules/left-pad/index.js", "deps/extern/x.cpp"]) {
      expect(isVendoredPath(path), path).toBe(true);
    }
    for (const path of ["packages/core/src/index.ts", "packages/shop/cart.py", "shop/cart.py", "src/vendors.py", "lib/external/api.py"]) {
      expect(isVendoredPath(path), path).toBe(false);
    }
  });
});
