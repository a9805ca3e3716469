import { readFileSync, rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { ModelTokenizer } from "../../../src/runtime/embed/tokenizer.js";
import { tinyModel } from "./models.js";

// makeVocab puts BERT's specials at their usual ids: [PAD] 0, [UNK] 100, [CLS] 101, [SEP] 102.
const fromJson = tinyModel({}, { vocabTxt: false });
const fromTxt = tinyModel({}, { tokenizerJson: false });
afterAll(() => {
  rmSync(fromJson, { recursive: true, force: true });
  rmSync(fromTxt, { recursive: true, force: true });
});

describe("WordPiece (BERT) through the tokenizers library", () => {
  const json = ModelTokenizer.fromDir(fromJson);
  const txt = ModelTokenizer.fromDir(fromTxt);
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

  it("a WordPiece tokenizer.json written without its template still gets BERT's [CLS] … [SEP]", () => {
    const bare = JSON.parse(readFileSync(`${fromJson}/tokenizer.json`, "utf8")) as Record<string, unknown>;
    delete bare.post_processor;
    delete bare.decoder;
    delete bare.added_tokens;
    expect(ModelTokenizer.fromTokenizerJson(bare).encode("Hello, World!", 64).ids).toEqual(json.encode("Hello, World!", 64).ids);
  });

  it("refuses what is not a tokenizer, with the file named", () => {
    expect(() => ModelTokenizer.fromTokenizerJson([], {}, "x/tokenizer.json")).toThrow(/x\/tokenizer.json is not a tokenizer/);
    expect(() => ModelTokenizer.fromTokenizerJson({ model: { type: "Mystery" } }, {}, "y/tokenizer.json")).toThrow(/Cannot read the tokenizer y\/tokenizer.json: Unknown TokenizerModel type/);
  });
});

/** A byte-level BPE tokenizer as Qwen-style models ship it: no prefix token, `<|endoftext|>` appended by the template. */
function bpeTokenizer(): Record<string, unknown> {
  const merges = ["c h", "ch a", "cha r", "char g", "charg e", "Ġ c", "Ġc a", "Ġca r", "Ġcar d"];
  const vocab: Record<string, number> = { "<|endoftext|>": 0 };
  for (const token of ["c", "h", "a", "r", "g", "e", "d", "Ġ", "o", "n", ...merges.map((m) => m.replace(" ", ""))]) vocab[token] = Object.keys(vocab).length;
  const eos = { SpecialToken: { id: "<|endoftext|>", type_id: 0 } };
  return {
    added_tokens: [{ id: 0, content: "<|endoftext|>", single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
    normalizer: { type: "NFC" },
    pre_tokenizer: { type: "ByteLevel", add_prefix_space: false, trim_offsets: false, use_regex: true },
    post_processor: {
      type: "TemplateProcessing",
      single: [{ Sequence: { id: "A", type_id: 0 } }, eos],
      pair: [{ Sequence: { id: "A", type_id: 0 } }, eos, { Sequence: { id: "B", type_id: 1 } }, { SpecialToken: { id: "<|endoftext|>", type_id: 1 } }],
      special_tokens: { "<|endoftext|>": { id: "<|endoftext|>", ids: [0], tokens: ["<|endoftext|>"] } },
    },
    decoder: { type: "ByteLevel", add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: { type: "BPE", dropout: null, unk_token: null, continuing_subword_prefix: "", end_of_word_suffix: "", fuse_unk: false, byte_fallback: false, vocab, merges },
  };
}

/** A SentencePiece Unigram tokenizer as XLM-R models (bge-m3, multilingual e5) ship it: `<s> … </s>`, `<pad>` 1. */
function unigramTokenizer(): Record<string, unknown> {
  const specials = ["<s>", "<pad>", "</s>", "<unk>"];
  const pieces: Array<[string, number]> = [["▁charge", -2], ["▁card", -2], ["▁", -3], ["s", -3], ["▁char", -4], ["ge", -4], ["c", -5], ["a", -5], ["r", -5], ["d", -5]];
  return {
    added_tokens: specials.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: null,
    pre_tokenizer: { type: "Metaspace", replacement: "▁", prepend_scheme: "always", split: true },
    post_processor: { type: "RobertaProcessing", sep: ["</s>", 2], cls: ["<s>", 0], trim_offsets: true, add_prefix_space: true },
    decoder: { type: "Metaspace", replacement: "▁", prepend_scheme: "always", split: true },
    model: { type: "Unigram", unk_id: 3, byte_fallback: false, vocab: [...specials.map((t): [string, number] => [t, 0]), ...pieces] },
  };
}

describe("tokenizers other than BERT's (BPE, Unigram), which the hand-written WordPiece refused", () => {
  it("byte-level BPE: merges, the appended end-of-text token kept last when cut, the pad token found by name", () => {
    const bpe = ModelTokenizer.fromTokenizerJson(bpeTokenizer());
    expect(bpe.encode("charge card", 64)).toEqual({ ids: [15, 19, 0], typeIds: [0, 0, 0] });
    expect(bpe.encode("charge card card card", 3).ids).toEqual([15, 19, 0]);
    expect(bpe.pad).toBe(0);
    expect(bpe.encodePair("charge", " card", 16)).toEqual({ ids: [15, 0, 19, 0], typeIds: [0, 0, 1, 1] });
  });

  it("SentencePiece Unigram: the best segmentation, RoBERTa's <s> … </s> and its pair form, <pad> from tokenizer_config.json", () => {
    const uni = ModelTokenizer.fromTokenizerJson(unigramTokenizer(), { pad_token: "<pad>" });
    expect(uni.encode("charge cards", 64).ids).toEqual([0, 4, 5, 7, 2]);
    expect(uni.tokenize("charge cards")).toEqual([4, 5, 7]);
    expect(uni.encode("charge cards charge cards", 4).ids).toEqual([0, 4, 5, 2]);
    expect(uni.encodePair("charge", "card", 16).ids).toEqual([0, 4, 2, 2, 5, 2]);
    expect(uni.pad).toBe(1);
  });
});
