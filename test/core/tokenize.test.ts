import { describe, expect, it } from "vitest";
import { termStats, tokenize } from "../../src/core/tokenize.js";
import { seededRandom } from "../helpers/random.js";

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

  it("splits at `$`, `_` and any character outside ASCII letters and digits", () => {
    expect(tokenize("$scope.apply_fn")).toEqual(["scope", "$scope", "apply", "fn", "apply_fn"]);
    expect(tokenize("HTTPServer ABc XMLHttp éclair naïveTest")).toEqual(["http", "server", "httpserver", "bc", "abc", "xml", "http", "xmlhttp", "clair", "na", "ve", "test", "vetest"]);
  });

  it("gives the tokens the word and part patterns define, on any text", () => {
    // The definition the scanner implements by character codes.
    const reference = (text: string): string[] => {
      const out: string[] = [];
      for (const [word] of text.matchAll(/[A-Za-z0-9_$]+/g)) {
        if (word.length > 64) continue;
        if (/^[a-z]+$/.test(word)) {
          if (word.length >= 2) out.push(word);
          continue;
        }
        const parts = [...word.matchAll(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g)].map(([p]) => p.toLowerCase());
        out.push(...parts.filter((p) => p.length >= 2));
        const lower = word.toLowerCase();
        if ((parts.length !== 1 || parts[0] !== lower) && lower.length >= 2) out.push(lower);
      }
      return out;
    };
    const alphabet = "aAbZz09_$ .-\nHTTPxmlÉé";
    const random = seededRandom(7);
    for (let n = 0; n < 5000; n++) {
      let text = "";
      for (let i = Math.floor(random() * 40); i > 0; i--) text += alphabet[Math.floor(random() * alphabet.length)];
      expect(tokenize(text), JSON.stringify(text)).toEqual(reference(text));
    }
    // The longest word kept, and the shortest dropped.
    expect(tokenize("x".repeat(62) + "Ab")).toEqual(["x".repeat(62), "ab", `${"x".repeat(62)}ab`]);
    expect(tokenize("x".repeat(63) + "Ab")).toEqual([]);
  });
});
