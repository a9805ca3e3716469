import { describe, expect, it } from "vitest";
import { termStats, tokenize } from "../../src/core/tokenize.js";

describe("tokenize", () => {
  it("splits camelCase and keeps the whole identifier", () => {
    expect(tokenize("chargeCard")).toEqual(["charge", "card", "chargecard"]);
  });

  it("splits snake_case and keeps the whole identifier", () => {
    expect(tokenize("apply_coupon")).toEqual(["apply", "coupon", "apply_coupon"]);
  });

  it("splits acronyms and digits", () => {
    expect(tokenize("parseHTTPResponse2")).toEqual(["parse", "http", "response", "parsehttpresponse2"]);
    expect(tokenize("base64Encode")).toEqual(["base", "64", "encode", "base64encode"]);
  });

  it("lower-cases plain words without duplicating them", () => {
    expect(tokenize("Hello world")).toEqual(["hello", "world"]);
  });

  it("drops single characters and over-long tokens", () => {
    expect(tokenize(`a b ${"x".repeat(80)} ok`)).toEqual(["ok"]);
  });

  it("counts term frequencies and length", () => {
    const stats = termStats("retry retryPolicy retry");
    expect(stats.tf).toEqual({ retry: 3, policy: 1, retrypolicy: 1 });
    expect(stats.length).toBe(5);
  });
});
