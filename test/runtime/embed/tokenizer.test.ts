import { readFileSync, rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { WordPieceTokenizer } from "../../../src/runtime/embed/tokenizer.js";
import { tinyModel } from "./models.js";

// makeVocab puts BERT's specials at their usual ids: [PAD] 0, [UNK] 100, [CLS] 101, [SEP] 102.
const fromJson = tinyModel({}, { vocabTxt: false });
const fromTxt = tinyModel({}, { tokenizerJson: false });
afterAll(() => {
  rmSync(fromJson, { recursive: true, force: true });
  rmSync(fromTxt, { recursive: true, force: true });
});

describe("WordPiece tokenizer", () => {
  const json = WordPieceTokenizer.fromDir(fromJson);
  const txt = WordPieceTokenizer.fromDir(fromTxt);
  const vocab = new Map<string, number>();
  // Ids of the generated vocabulary, read independently of the tokenizer: the line number in vocab.txt.
  const id = (token: string): number => {
    if (vocab.size === 0) {
      readFileSync(`${fromTxt}/vocab.txt`, "utf8").split("\n").forEach((t, i) => vocab.set(t, i));
    }
    const value = vocab.get(token);
    if (value === undefined) throw new Error(`no ${token}`);
    return value;
  };

  it("wraps a text in [CLS] … [SEP] with BERT's special ids, lowercasing and splitting punctuation", () => {
    expect(json.encode("Hello, World!", 64).ids).toEqual([101, id("hello"), id(","), id("world"), id("!"), 102]);
    expect(json.encode("Hello, World!", 64).typeIds).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it("splits unknown words into the longest known pieces with ## continuations", () => {
    // "cards" = "card" + "##s"; "unable" = "un" + "##able"; "card_policy" splits at the underscore (punctuation).
    expect(json.tokenize("cards unable card_policy")).toEqual([id("card"), id("##s"), id("un"), id("##able"), id("card"), id("_"), id("policy")]);
    // No word piece fits "€" alone: the whole word is [UNK].
    expect(json.tokenize("€uro")).toEqual([100]);
  });

  it("strips accents, drops control characters, isolates CJK characters", () => {
    expect(json.tokenize("Héllo\u0000 wörld")).toEqual(json.tokenize("hello world"));
    expect(json.tokenize("a中b")).toEqual([id("a"), 100, id("b")]);
  });

  it("reads tokenizer.json and vocab.txt to the same ids", () => {
    for (const text of ["def charge_card(card, amount):", "RetryPolicy.next_delay(attempt) -> int", "Ünïcode and  tabs\tand\nnewlines"]) {
      expect(txt.encode(text, 64)).toEqual(json.encode(text, 64));
    }
  });

  it("truncates to the model's length, keeping [SEP] last", () => {
    const ids = json.encode("card ".repeat(100), 16).ids;
    expect(ids).toHaveLength(16);
    expect(ids[0]).toBe(101);
    expect(ids[15]).toBe(102);
  });

  it("encodes pairs for a cross-encoder: segment ids 0 then 1, the longer text cut first", () => {
    const pair = json.encodePair("charge card", "retry policy", 32);
    expect(pair.ids).toEqual([101, id("charge"), id("card"), 102, id("retry"), id("policy"), 102]);
    expect(pair.typeIds).toEqual([0, 0, 0, 0, 1, 1, 1]);
    const cut = json.encodePair("card ".repeat(50), "retry policy", 16);
    expect(cut.ids).toHaveLength(16);
    expect(cut.ids.slice(-3)).toEqual([id("retry"), id("policy"), 102]);
  });

  it("refuses tokenizers that are not WordPiece", () => {
    expect(() => WordPieceTokenizer.fromTokenizerJson({ model: { type: "BPE", vocab: {} } })).toThrow(/Only WordPiece/);
  });
});
