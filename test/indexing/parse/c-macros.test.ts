import { describe, expect, it } from "vitest";
import { blankAttributeMacros } from "../../../src/indexing/parse/c-macros.js";

describe("attribute macros blanked for the C/C++ parser", () => {
  it("blanks upper-case macros that decorate a declaration or stand alone, keeping every offset", () => {
    const source = [
      "FMT_BEGIN_NAMESPACE",
      "ZSTDLIB_API size_t ZSTD_compress(void* dst);",
      "  FMT_CONSTEXPR FMT_INLINE auto size() const -> size_t { return n; }",
      "  MEM_STATIC ~Foo();",
      "static inline FMT_CONSTEXPR int g(void);",
      "class GTEST_API_ TestPartResult {",
      "struct FMT_API format_error : std::runtime_error {",
    ].join("\n");
    const blanked = blankAttributeMacros(source, "cpp");
    expect(blanked.length).toBe(source.length);
    expect(blanked.split("\n")).toEqual([
      "                   ",
      "            size_t ZSTD_compress(void* dst);",
      "                           auto size() const -> size_t { return n; }",
      "             ~Foo();",
      "static inline               int g(void);",
      "class            TestPartResult {",
      "struct         format_error : std::runtime_error {",
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
      "struct ZSTD_BOUNDS x;",
      "static const U32 x = 1;",
    ].join("\n");
    expect(blankAttributeMacros(source, "c")).toBe(source);
    expect(blankAttributeMacros(source, "cpp")).toBe(source);
  });

  it("keeps an upper-case return type before a function's name, but for a C++ constructor in its class", () => {
    const source = ["LARGE_INTEGER get_time(void);", "static SIZE_T count_items(LIST *l) {", "  FMT_CONSTEXPR size_padding(int n) : size(n) {}"].join("\n");
    expect(blankAttributeMacros(source, "c")).toBe(source);
    expect(blankAttributeMacros(source, "cpp").split("\n")).toEqual([
      "LARGE_INTEGER get_time(void);",
      "static SIZE_T count_items(LIST *l) {",
      "                size_padding(int n) : size(n) {}",
    ]);
  });
});
