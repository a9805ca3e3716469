import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import { ContextSmithError } from "../../core/errors.js";

/** Token ids of one encoded input, ready for an encoder model. */
export interface Encoding {
  ids: number[];
  /** 0 for the first text (and its specials), 1 for the second of a pair, as the model's template says. */
  typeIds: number[];
}

/** The parts of a `tokenizer.json` read here; the library reads the rest. */
interface TokenizerJson {
  model?: { type?: string; vocab?: unknown; unk_token?: string };
  normalizer?: unknown;
  pre_tokenizer?: unknown;
  post_processor?: unknown;
  decoder?: unknown;
  added_tokens?: Array<{ id: number; content: string; special?: boolean }>;
  padding?: { pad_id?: number } | null;
}

/** Tokens a model pads with, by family, when neither file names one. */
const PAD_TOKENS = ["[PAD]", "<pad>", "<|endoftext|>", "</s>"];

/**
 * A model's own tokenizer, read from its `tokenizer.json` by Hugging Face's tokenizers library
 * (WordPiece, BPE, Unigram: BERT, RoBERTa/XLM-R, Qwen-style models), or built from a BERT
 * `vocab.txt`. Adds the special tokens the model's template says (`[CLS] … [SEP]`, `<s> … </s>`,
 * a trailing `<|endoftext|>`), after cutting the text so that the whole fits the model's length.
 */
export class ModelTokenizer {
  readonly pad: number;
  /** Special tokens that one text, and a pair, get: the room they take is kept when cutting. */
  readonly #specials: { single: number; pair: number };

  private constructor(private readonly tokenizer: Tokenizer, pad: number) {
    this.pad = pad;
    this.#specials = { single: this.#finish(["a"], null).ids.length - 1, pair: this.#finish(["a"], ["b"]).ids.length - 2 };
  }

  /** Reads `tokenizer.json` (preferred) or `vocab.txt` (+ `tokenizer_config.json`) from a model folder. */
  static fromDir(dir: string): ModelTokenizer {
    const configFile = join(dir, "tokenizer_config.json");
    const config = existsSync(configFile) ? (readJson(configFile) as Record<string, unknown>) : {};
    const json = join(dir, "tokenizer.json");
    if (existsSync(json)) return ModelTokenizer.fromTokenizerJson(readJson(json), config, json);
    const txt = join(dir, "vocab.txt");
    if (!existsSync(txt)) throw new ContextSmithError("NOT_FOUND", `No tokenizer.json or vocab.txt in ${dir}.`);
    return ModelTokenizer.fromTokenizerJson(bertTokenizerJson(readFileSync(txt, "utf8"), config), config, txt);
  }

  /** A `tokenizer.json`'s content (and `tokenizer_config.json`'s, which names the pad token of some models). */
  static fromTokenizerJson(value: unknown, config: Record<string, unknown> = {}, source = "tokenizer.json"): ModelTokenizer {
    if (!value || typeof value !== "object" || Array.isArray(value)) throw new ContextSmithError("INVALID_ARGUMENT", `${source} is not a tokenizer.`);
    const t = value as TokenizerJson;
    if (!t.model || (typeof t.model.type !== "string" && t.model.vocab === undefined)) throw new ContextSmithError("INVALID_ARGUMENT", `${source} has no tokenizer model.`);
    // The library wants every part named; a file written by hand may leave some out.
    const full: TokenizerJson = { normalizer: null, pre_tokenizer: null, post_processor: null, decoder: null, added_tokens: [], ...t };
    // A WordPiece file without its template (written by hand) is BERT's: `[CLS] text [SEP]`, as a BERT model was trained.
    const vocab = t.model.vocab as Record<string, number> | undefined;
    if (full.post_processor === null && t.model.type === "WordPiece" && vocab?.["[CLS]"] !== undefined && vocab["[SEP]"] !== undefined) {
      full.post_processor = { type: "BertProcessing", cls: ["[CLS]", vocab["[CLS]"]], sep: ["[SEP]", vocab["[SEP]"]] };
    }
    let tokenizer: Tokenizer;
    try {
      tokenizer = new Tokenizer(full, config);
    } catch (error) {
      throw new ContextSmithError("INVALID_ARGUMENT", `Cannot read the tokenizer ${source}: ${(error as Error).message}`);
    }
    return new ModelTokenizer(tokenizer, padId(tokenizer, full, config));
  }

  /** The ids of `text`, without special tokens. */
  tokenize(text: string): number[] {
    return this.#ids(this.#tokens(text));
  }

  /** One text with the model's special tokens, cut to `maxLength` tokens in all (the specials kept). */
  encode(text: string, maxLength: number): Encoding {
    const room = Math.max(0, maxLength - this.#specials.single);
    return this.#finish(this.#tokens(text).slice(0, room), null);
  }

  /** A pair for a cross-encoder (`[CLS] a [SEP] b [SEP]`); the longer text is cut first until both fit `maxLength`. */
  encodePair(a: string, b: string, maxLength: number): Encoding {
    let first = this.#tokens(a);
    let second = this.#tokens(b);
    const room = Math.max(0, maxLength - this.#specials.pair);
    while (first.length + second.length > room) {
      if (first.length >= second.length) first = first.slice(0, Math.max(room - second.length, Math.floor(room / 2)));
      else second = second.slice(0, Math.max(room - first.length, Math.floor(room / 2)));
    }
    return this.#finish(first, second);
  }

  /** Token strings of a text, without special tokens. */
  #tokens(text: string): string[] {
    return this.tokenizer.tokenize(text, { add_special_tokens: false });
  }

  #ids(tokens: readonly string[]): number[] {
    const { tokens_to_ids, unk_token_id } = this.tokenizer.model!;
    return tokens.map((token) => tokens_to_ids.get(token) ?? unk_token_id ?? 0);
  }

  /** The model's template around one or two token lists. */
  #finish(first: string[], second: string[] | null): Encoding {
    const processor = this.tokenizer.post_processor;
    if (!processor) {
      const tokens = second ? [...first, ...second] : first;
      return { ids: this.#ids(tokens), typeIds: tokens.map((_, i) => (i < first.length ? 0 : 1)) };
    }
    const out = processor.post_process(first, second, true);
    const tokens = second && out.tokens_pair ? [...out.tokens, ...out.tokens_pair] : out.tokens;
    return { ids: this.#ids(tokens), typeIds: out.token_type_ids ?? tokens.map(() => 0) };
  }
}

/** BERT's `tokenizer.json` for a folder that has only `vocab.txt` (and maybe `tokenizer_config.json`). */
function bertTokenizerJson(vocabText: string, config: Record<string, unknown>): TokenizerJson {
  const vocab: Record<string, number> = {};
  vocabText.split(/\r?\n/).forEach((token, i) => {
    if (token !== "" && !(token in vocab)) vocab[token] = i;
  });
  for (const special of ["[CLS]", "[SEP]", "[UNK]"]) {
    if (vocab[special] === undefined) throw new ContextSmithError("INVALID_ARGUMENT", `The tokenizer's vocabulary has no ${special} token.`);
  }
  const lowercase = typeof config.do_lower_case === "boolean" ? config.do_lower_case : true;
  const stripAccents = typeof config.strip_accents === "boolean" ? config.strip_accents : null;
  const specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"].filter((s) => vocab[s] !== undefined);
  return {
    added_tokens: specials.map((content) => ({ id: vocab[content]!, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: stripAccents, lowercase },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: { type: "BertProcessing", cls: ["[CLS]", vocab["[CLS]"]], sep: ["[SEP]", vocab["[SEP]"]] },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab } as TokenizerJson["model"],
  };
}

/** The pad token's id: tokenizer.json's padding, tokenizer_config.json's `pad_token`, a family's usual one, else 0. */
function padId(tokenizer: Tokenizer, json: TokenizerJson, config: Record<string, unknown>): number {
  if (typeof json.padding?.pad_id === "number") return json.padding.pad_id;
  const named = config.pad_token;
  const name = typeof named === "string" ? named : named && typeof named === "object" ? (named as { content?: unknown }).content : undefined;
  for (const token of [name, ...PAD_TOKENS]) {
    const id = typeof token === "string" ? tokenizer.token_to_id(token) : undefined;
    if (id !== undefined) return id;
  }
  return 0;
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ContextSmithError("INVALID_ARGUMENT", `Cannot read ${path}: ${(error as Error).message}`);
  }
}
