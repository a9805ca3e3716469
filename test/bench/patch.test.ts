import { describe, expect, it } from "vitest";
import { parsePatch } from "../../src/bench/patch.js";

describe("parsePatch", () => {
  it("takes the deleted and modified pre-image lines of each hunk", () => {
    const patch = [
      "diff --git a/shop/cart.py b/shop/cart.py",
      "--- a/shop/cart.py",
      "+++ b/shop/cart.py",
      "@@ -10,6 +10,6 @@ class Cart:",
      "     def add(self, item):",
      "-        self.items.append(item)",
      "+        self.items.append(item.copy())",
      "         return self",
      " ",
      "-    def total(self):",
      "-        return 0",
      "+    def total(self):",
      "+        return sum(self.items)",
      "@@ -40,3 +40,2 @@ def helper():",
      "     a = 1",
      "-    b = 2",
      "     return a",
    ].join("\n");
    expect(parsePatch(patch)).toEqual([{ path: "shop/cart.py", isNew: false, isTest: false, lines: [11, 14, 15, 41] }]);
  });

  it("takes the line before the insertion point for a hunk that only adds lines", () => {
    const patch = [
      "diff --git a/a.py b/a.py",
      "--- a/a.py",
      "+++ b/a.py",
      "@@ -5,4 +5,6 @@",
      " one",
      " two",
      "+new1",
      "+new2",
      " three",
      "+new3",
      " four",
      "@@ -1,2 +3,3 @@",
      "+at the top",
      " first",
      " second",
    ].join("\n");
    // Runs after line 6 ("two") and after line 7 ("three"); at the top, line 1.
    expect(parsePatch(patch)[0]!.lines).toEqual([1, 6, 7]);
  });

  it("ignores additions in a hunk that also deletes, and the no-newline marker", () => {
    const patch = ["diff --git a/b.py b/b.py", "--- a/b.py", "+++ b/b.py", "@@ -3,2 +3,3 @@", "-old", "+new", "+more", " keep", "\\ No newline at end of file"].join("\n");
    expect(parsePatch(patch)[0]!.lines).toEqual([3]);
  });

  it("marks new files and test files, across several files", () => {
    const patch = [
      "diff --git a/pkg/new_module.py b/pkg/new_module.py",
      "new file mode 100644",
      "--- /dev/null",
      "+++ b/pkg/new_module.py",
      "@@ -0,0 +1,2 @@",
      "+def f():",
      "+    pass",
      "diff --git a/tests/test_x.py b/tests/test_x.py",
      "--- a/tests/test_x.py",
      "+++ b/tests/test_x.py",
      "@@ -1 +1 @@",
      "-assert x",
      "+assert y",
    ].join("\n");
    expect(parsePatch(patch)).toEqual([
      { path: "pkg/new_module.py", isNew: true, isTest: false, lines: [1] },
      { path: "tests/test_x.py", isNew: false, isTest: true, lines: [1] },
    ]);
  });

  describe("with the files' pre-image", () => {
    // The hunk says line 3; in the file its text starts at line 6, as `git apply` would find it.
    const file = ["# header", "", "import os", "", "", "def f():", "    return 1", "", "def g():", "    return 2", "", "def f():", "    return 9"];
    const patch = ["diff --git a/m.py b/m.py", "--- a/m.py", "+++ b/m.py", "@@ -3,3 +3,3 @@", " def f():", "-    return 1", "+    return 3", " ", ""].join("\n");

    it("places a hunk where its text is when its header is off", () => {
      expect(parsePatch(patch, () => file)[0]!.lines).toEqual([7]);
      expect(parsePatch(patch)[0]!.lines).toEqual([4]);
    });

    it("takes the nearest match, and the header's line where the text is nowhere", () => {
      // `def f(): return 9` is at 12-13; a hunk saying 11 is nearer to it than to 6.
      const later = patch.replace("@@ -3,3 +3,3 @@", "@@ -11,2 +11,2 @@").replace("    return 1", "    return 9").replace(" \n", "");
      expect(parsePatch(later, () => file)[0]!.lines).toEqual([13]);
      const gone = patch.replace("    return 1", "    return 7");
      expect(parsePatch(gone, () => file)[0]!.lines).toEqual([4]);
      expect(parsePatch(patch, () => null)[0]!.lines).toEqual([4]);
    });

    it("moves insertion points with their hunk, and reads no more pre-image lines than the header counts", () => {
      const insert = ["diff --git a/m.py b/m.py", "--- a/m.py", "+++ b/m.py", "@@ -5,2 +5,3 @@", " def g():", "+    x = 0", "     return 2", "", "", ""].join("\n");
      // "def g()" is line 9: the insertion follows it. The trailing empty rows are past the hunk's 2 lines.
      expect(parsePatch(insert, () => file)[0]!.lines).toEqual([9]);
    });
  });
});
