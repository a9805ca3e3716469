import { describe, expect, it } from "vitest";
import { boundText } from "../../src/mcp/bound.js";

// A stand-in tokenizer: one token per word.
const count = async (text: string): Promise<number> => text.split(/\s+/).filter((w) => w !== "").length;

describe("boundText", () => {
  it("leaves an answer within the limit as it is", async () => {
    expect(await boundText("a b c\nd e", 5, count)).toBe("a b c\nd e");
  });

  it("cuts at a line boundary, says how much was left out, and stays within the limit", async () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i} has five words`).join("\n");
    const bounded = await boundText(text, 300, count);
    expect(await count(bounded)).toBeLessThanOrEqual(300);
    expect(bounded).toMatch(/^line 0 has five words\n/);
    expect(bounded).toMatch(/… \d+ more lines left out to stay within 300 tokens/);
  });
});
