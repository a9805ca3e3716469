import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/core/config.js";

describe("resolveConfig", () => {
  it("fills every option with a default and freezes the result", () => {
    const config = resolveConfig("/repo");
    expect(config).toMatchObject({ root: "/repo", indexDir: "/repo/.contextsmith", git: true, maxFileBytes: 1024 * 1024 });
    expect(config.jobs).toBeGreaterThanOrEqual(1);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it("resolves a relative index folder against the root", () => {
    expect(resolveConfig("/repo", { indexDir: "cache/idx" }).indexDir).toBe("/repo/cache/idx");
  });

  it("rejects jobs and sizes that are not positive integers", () => {
    for (const jobs of [0, -1, 1.5, Number.NaN]) {
      expect(() => resolveConfig("/repo", { jobs })).toThrowError(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
    expect(() => resolveConfig("/repo", { maxFileBytes: 0 })).toThrowError(/maxFileBytes must be a positive integer/);
  });

  it("takes the lexical segment size from the environment, and refuses one that is no count", () => {
    expect(resolveConfig("/repo", {}, {}).lexicalSegmentRows).toBe(1_000_000);
    expect(resolveConfig("/repo", {}, { CTXSMITH_LEXICAL_SEGMENT_ROWS: "50000" }).lexicalSegmentRows).toBe(50_000);
    for (const value of ["0", "lots", "1e3.5"]) {
      expect(() => resolveConfig("/repo", {}, { CTXSMITH_LEXICAL_SEGMENT_ROWS: value })).toThrowError(/CTXSMITH_LEXICAL_SEGMENT_ROWS must be a positive integer/);
    }
  });
});
