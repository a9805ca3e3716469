import { describe, expect, it } from "vitest";
import { PathIndex } from "../../src/store/path-index.js";

const paths = new PathIndex(["src/shop/payments/retry.py", "src/shop/__init__.py", "src/shop/cart.py", "tools/cart.py", "web/app/index.ts", "README.md"]);

describe("PathIndex", () => {
  it("resolves a path as written, an absolute path by its longest tail, and a file name to every match", () => {
    expect(paths.resolve("src/shop/cart.py")).toEqual(["src/shop/cart.py"]);
    expect(paths.resolve("/home/me/proj/src/shop/cart.py")).toEqual(["src/shop/cart.py"]);
    expect(paths.resolve("./tools/cart.py")).toEqual(["tools/cart.py"]);
    expect(paths.resolve("cart.py").sort()).toEqual(["src/shop/cart.py", "tools/cart.py"]);
    expect(paths.resolve("shop/cart.py")).toEqual(["src/shop/cart.py"]);
    expect(paths.resolve("nothing.py")).toEqual([]);
  });

  it("resolves an installed package's file to its source, whatever the layout", () => {
    expect(paths.resolve("/usr/lib/python3/site-packages/shop/cart.py")).toEqual(["src/shop/cart.py"]);
    expect(paths.resolve("C:\\Python310\\Lib\\site-packages\\shop\\payments\\retry.py")).toEqual(["src/shop/payments/retry.py"]);
    expect(paths.resolve("/usr/lib/python3/dist-packages/shop/cart.py")).toEqual(["src/shop/cart.py"]);
    expect(paths.resolve("/home/u/.pyenv/lib/python2.7/site-packages/shop-2.3.0-py2.7.egg/shop/cart.py")).toEqual(["src/shop/cart.py"]);
    // A package folder the repository has at its root, written the way an older install lays it out.
    expect(paths.resolve("/usr/lib/python3/site-packages/unpacked/web/app/index.ts")).toEqual(["web/app/index.ts"]);
    // Another package's file is not this repository's, even where a file name is shared.
    expect(paths.resolve("/usr/lib/python3/site-packages/numpy/cart.py")).toEqual([]);
    expect(paths.resolve("/usr/lib/python3/site-packages/cart.py")).toEqual([]);
  });

  it("resolves a path the history renamed to the file it is now, where no file has that path", () => {
    const renamed = new Map([["src/shop/basket.py", "src/shop/cart.py"], ["tools/cart.py", "src/shop/cart.py"], ["lib/gone.py", "lib/deleted.py"]]);
    const moved = new PathIndex(["src/shop/cart.py", "tools/cart.py", "src/shop/payments/retry.py"], () => renamed);
    expect(moved.resolve("/usr/lib/python3/site-packages/shop/basket.py")).toEqual(["src/shop/cart.py"]);
    expect(moved.resolve("basket.py")).toEqual(["src/shop/cart.py"]);
    // A path that names a file now means that file, whatever it was renamed from.
    expect(moved.resolve("tools/cart.py")).toEqual(["tools/cart.py"]);
    // A rename to a file that is not in the index is no answer.
    expect(moved.resolve("lib/gone.py")).toEqual([]);
    expect(moved.resolve("nothing.py")).toEqual([]);
  });

  it("resolves dotted module paths to files, with the member parts left over", () => {
    expect(paths.resolveModule("shop.payments.retry.RetryPolicy.next_delay")).toEqual({ paths: ["src/shop/payments/retry.py"], rest: ["RetryPolicy", "next_delay"] });
    expect(paths.resolveModule("src.shop")).toEqual({ paths: ["src/shop/__init__.py"], rest: [] });
    expect(paths.resolveModule("web.app")).toEqual({ paths: ["web/app/index.ts"], rest: [] });
    // One part is too weak a hint: `np.array` must not find `array.py`.
    expect(paths.resolveModule("cart")).toBeNull();
    expect(paths.resolveModule("self.cart")).toBeNull();
  });

  it("finds a module by any tail of two parts or more, at a folder's boundary, every file that has it", () => {
    const many = new PathIndex(["a/pkg/retry.py", "b/pkg/retry/__init__.py", "c/xpkg/retry.py", "pkg/retry.ts", "d/pkg/retry.txt", "lib/pkg/retry/mod.rs", "e/retry.py"]);
    expect(many.resolveModule("pkg.retry.Policy")).toEqual({ paths: ["a/pkg/retry.py", "b/pkg/retry/__init__.py", "pkg/retry.ts", "lib/pkg/retry/mod.rs"], rest: ["Policy"] });
    expect(many.resolveModule("xpkg.retry")).toEqual({ paths: ["c/xpkg/retry.py"], rest: [] });
    expect(many.resolveModule("b.pkg.retry")).toEqual({ paths: ["b/pkg/retry/__init__.py"], rest: [] });
    // The longest prefix that names a module wins over a shorter one.
    expect(many.resolveModule("a.pkg.retry.pkg.retry")).toEqual({ paths: ["a/pkg/retry.py"], rest: ["pkg", "retry"] });
    expect(many.resolveModule("g.retry")).toBeNull();
  });

  it("tokenizes paths without their extension", () => {
    expect(paths.tokens("src/shop/payments/retry.py")).toEqual(["src", "shop", "payments", "retry"]);
  });
});
