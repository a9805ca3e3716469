import { describe, expect, it } from "vitest";
import { decodeVector, encodeVectors, fromHalf, roundToHalf, toHalf } from "../../src/store/vector-codec.js";
import { seededRandom } from "../helpers/random.js";

describe("float16 vector storage", () => {
  it("encodes known values to their IEEE half-precision bits", () => {
    expect(toHalf(1)).toBe(0x3c00);
    expect(toHalf(-2)).toBe(0xc000);
    expect(toHalf(0.5)).toBe(0x3800);
    expect(toHalf(0)).toBe(0);
    expect(toHalf(65504)).toBe(0x7bff);
    expect(toHalf(1e6)).toBe(0x7c00); // overflow: infinity
    expect(toHalf(2 ** -24)).toBe(1); // the smallest subnormal
    expect(fromHalf(0x3555)).toBeCloseTo(1 / 3, 3);
    expect(Number.isNaN(fromHalf(toHalf(Number.NaN)))).toBe(true);
  });

  it("round-trips within float16's precision, exactly once rounded", () => {
    const next = seededRandom(3);
    const rand = () => next() * 2 - 1;
    for (let i = 0; i < 10_000; i++) {
      const x = rand() * 0.3;
      const y = fromHalf(toHalf(x));
      expect(Math.abs(y - x)).toBeLessThanOrEqual(Math.max(Math.abs(x) * 2 ** -11, 2 ** -25));
      expect(fromHalf(toHalf(y))).toBe(y); // rounding is idempotent
    }
  });

  it("stores vectors one after another and reads each back", () => {
    const a = roundToHalf(Float32Array.of(0.1, -0.2, 0.3));
    const b = roundToHalf(Float32Array.of(-0.5, 0.25, 0.125));
    const bytes = encodeVectors([a, b]);
    expect(bytes.length).toBe(12);
    expect(decodeVector(bytes, 0, 3)).toEqual(a);
    expect(decodeVector(bytes, 1, 3)).toEqual(b);
  });
});
