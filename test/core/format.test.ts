import { describe, expect, it } from "vitest";
import { formatBytes, formatCount } from "../../src/core/format.js";

describe("formatCount", () => {
  it("writes whole numbers as toLocaleString('en-US') does", () => {
    for (const n of [0, 7, 12, 999, 1000, 3920, 12_345, 100_000, 999_999, 1_000_000, 1_234_567_890, -1, -1000, -1_234_567, Number.MAX_SAFE_INTEGER]) {
      expect(formatCount(n), String(n)).toBe(n.toLocaleString("en-US"));
    }
  });

  it("leaves other numbers to toLocaleString", () => {
    expect(formatCount(1234.5678)).toBe("1,234.568");
    expect(formatCount(Number.NaN)).toBe("NaN");
  });
});

describe("formatBytes", () => {
  it("picks a unit", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(2048)).toMatch(/^2(\.0)? KB$/);
  });
});
