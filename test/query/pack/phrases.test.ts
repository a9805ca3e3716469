import { describe, expect, it } from "vitest";
import { phraseLines, quotedPhrases } from "../../../src/query/pack/phrases.js";

describe("quoted phrases", () => {
  it("takes three words in a row from what the task quotes: fenced blocks, backticks, quoted strings", () => {
    const task = [
      "Trailing whitespace in the repr",
      "The first line of the output is `DatasetGroupBy, grouped over 'letters' `.",
      "```",
      ">>> str(ds.groupby('letters'))",
      "\"DatasetGroupBy, grouped over 'letters' \\n2 groups with labels 'a', 'b'.\"",
      "```",
      'It says "could not convert string to float" and stops.',
      "a plain sentence about groups with labels is not quoted",
    ].join("\n");
    const phrases = quotedPhrases(task);
    expect(phrases.has("groups with labels")).toBe(true);
    expect(phrases.has("datasetgroupby grouped over")).toBe(true);
    expect(phrases.has("convert string float")).toBe(false); // not three in a row: "to" sits between
    expect(phrases.has("could not convert")).toBe(true);
    // Prose outside quotes gives none, and stopword runs are no phrase.
    expect(phrases.has("plain sentence about")).toBe(false);
    expect(quotedPhrases("see `the a of` here").size).toBe(0);
  });

  it("finds the lines of code that write a phrase in a string, none where the file writes it everywhere", () => {
    const phrases = quotedPhrases("```\nDatasetGroupBy, grouped over 'letters' \n2 groups with labels 'a', 'b'.\n```");
    const code = [
      "class GroupBy:",
      "    def __repr__(self):",
      '        return "{}, grouped over {!r} \\n{!r} groups with labels {}.".format(',
      "            self.__class__.__name__)",
      "    # groups with labels are kept sorted",
    ];
    // The comment has no string: only the line that prints it.
    expect(phraseLines(code, phrases)).toEqual([3]);
    expect(phraseLines(code, new Set())).toEqual([]);
    const everywhere = Array.from({ length: 4 }, () => 'log("groups with labels")');
    expect(phraseLines(everywhere, phrases)).toEqual([]);
  });

  it("reads a long hostile task (unclosed quotes, fences, backticks) and still finds what it quotes last", () => {
    // A quadratic scan of this would outlast the test's timeout by far.
    const task = `${'"'.repeat(100_000)}${"`x".repeat(50_000)}\n${"```\n".repeat(20_001)}${"word ".repeat(20_000)}\n\`groups with labels\``;
    expect(quotedPhrases(task).has("groups with labels")).toBe(true);
  });
});
