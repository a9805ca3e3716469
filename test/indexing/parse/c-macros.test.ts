import { describe, expect, it } from "vitest";
import { blankAttributeMacros } from "../../../src/indexing/parse/c-macros.js";

describe("attribute macros blanked for the C/C++ parser", () => {
  it("blanks upper-case macros that decorate a declaration or stand alone, keeping every offset", () => {
    const source = [
      "FMT_BEGIN_NAMESPACE",
      "ZSTDLIB_API size_t ZSTD_compress(void* dst);",
      "  FMT_CONSTEXPR FMT_INLINE auto size() const -> size_t { return n; }",
      "MEM_STATIC ~Foo();",
    ].join("\n");
    const blanked = blankAttributeMacros(source);
    expect(blanked.length).toBe(source.length);
    expect(blanked.split("\n")).toEqual([
      "                   ",
      "            size_t ZSTD_compress(void* dst);",
      "                           auto size() const -> size_t { return n; }",
      "           ~Foo();",
    ]);
  });

  it("leaves calls, constants in expressions, enumerators, types without an underscore and #define lines alone", () => {
    const source = [
      "ZSTD_STATIC_ASSERT(sizeof(x) == 4);",
      "  ZSTD_e_end = 2,",
      "U32 hash(U32 x);",
      "#define ZSTD_API extern",
      "  return ZSTD_MAX_LEVEL + n;",
      "  ZSTD_MAX_LEVEL + n;",
    ].join("\n");
    expect(blankAttributeMacros(source)).toBe(source);
  });
});
