import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ContextSmithError } from "../../core/errors.js";

/** Token ids of one encoded input, ready for a BERT-shaped model. */
export interface Encoding {
  ids: number[];
  /** 0 for the first text (and its [CLS]/[SEP]), 1 for the second of a pair. */
  typeIds: number[];
}

interface WordPieceOptions {
  vocab: Map<string, number>;
  lowercase: boolean;
  stripAccents: boolean;
  unk: string;
  prefix: string;
  maxCharsPerWord: number;
}

/**
 * BERT's tokenizer: the basic tokenizer (clean, split CJK characters, lowercase and strip accents,
 * split on whitespace and punctuation) then WordPiece (greedy longest match, `##` continuations).
 * Read from a model folder's `tokenizer.json` (Hugging Face tokenizers) or `vocab.txt`.
 */
export class WordPieceTokenizer {
  readonly #o: WordPieceOptions;
  readonly cls: number;
  readonly sep: number;
  readonly pad: number;
  readonly #unk: number;
  /** Word -> pieces: summaries repeat the same identifiers over and over. */
  readonly #memo = new Map<string, number[]>();

  constructor(options: WordPieceOptions) {
    this.#o = options;
    const id = (token: string): number => {
      const value = options.vocab.get(token);
      if (value === undefined) throw new ContextSmithError("INVALID_ARGUMENT", `The tokenizer's vocabulary has no ${token} token.`);
      return value;
    };
    this.cls = id("[CLS]");
    this.sep = id("[SEP]");
    this.pad = id("[PAD]");
    this.#unk = id(options.unk);
  }

  /** Reads `tokenizer.json` (preferred) or `vocab.txt` (+ `tokenizer_config.json`) from a model folder. */
  static fromDir(dir: string): WordPieceTokenizer {
    const json = join(dir, "tokenizer.json");
    if (existsSync(json)) return WordPieceTokenizer.fromTokenizerJson(readJson(json));
    const txt = join(dir, "vocab.txt");
    if (!existsSync(txt)) throw new ContextSmithError("NOT_FOUND", `No tokenizer.json or vocab.txt in ${dir}.`);
    const vocab = new Map<string, number>();
    readFileSync(txt, "utf8").split(/\r?\n/).forEach((token, i) => {
      if (token !== "" && !vocab.has(token)) vocab.set(token, i);
    });
    const configFile = join(dir, "tokenizer_config.json");
    const config = existsSync(configFile) ? (readJson(configFile) as { do_lower_case?: boolean; strip_accents?: boolean | null }) : {};
    const lowercase = config.do_lower_case ?? true;
    return new WordPieceTokenizer({ vocab, lowercase, stripAccents: config.strip_accents ?? lowercase, unk: "[UNK]", prefix: "##", maxCharsPerWord: 100 });
  }

  static fromTokenizerJson(value: unknown): WordPieceTokenizer {
    const t = value as {
      normalizer?: { type?: string; lowercase?: boolean; strip_accents?: boolean | null } | null;
      model?: { type?: string; vocab?: Record<string, number>; unk_token?: string; continuing_subword_prefix?: string; max_input_chars_per_word?: number };
    };
    if (t.model?.type !== "WordPiece" || !t.model.vocab) {
      throw new ContextSmithError("INVALID_ARGUMENT", `Only WordPiece (BERT) tokenizers are supported, this one is ${t.model?.type ?? "unknown"}.`);
    }
    const lowercase = t.normalizer?.type === "BertNormalizer" ? t.normalizer.lowercase ?? true : false;
    return new WordPieceTokenizer({
      vocab: new Map(Object.entries(t.model.vocab)),
      lowercase,
      stripAccents: t.normalizer?.strip_accents ?? lowercase,
      unk: t.model.unk_token ?? "[UNK]",
      prefix: t.model.continuing_subword_prefix ?? "##",
      maxCharsPerWord: t.model.max_input_chars_per_word ?? 100,
    });
  }

  /** The WordPiece ids of `text`, without special tokens. */
  tokenize(text: string): number[] {
    const ids: number[] = [];
    for (const word of this.#basic(text)) {
      let pieces = this.#memo.get(word);
      if (!pieces) {
        pieces = this.#wordPiece(word);
        if (this.#memo.size > 50_000) this.#memo.clear();
        this.#memo.set(word, pieces);
      }
      for (const p of pieces) ids.push(p);
    }
    return ids;
  }

  /** `[CLS] text [SEP]`, truncated to `maxLength` tokens in all. */
  encode(text: string, maxLength: number): Encoding {
    const ids = [this.cls, ...this.tokenize(text).slice(0, Math.max(0, maxLength - 2)), this.sep];
    return { ids, typeIds: ids.map(() => 0) };
  }

  /** `[CLS] a [SEP] b [SEP]` for a cross-encoder; the longer text is cut first until both fit `maxLength`. */
  encodePair(a: string, b: string, maxLength: number): Encoding {
    let first = this.tokenize(a);
    let second = this.tokenize(b);
    const room = Math.max(0, maxLength - 3);
    while (first.length + second.length > room) {
      if (first.length >= second.length) first = first.slice(0, Math.max(room - second.length, Math.floor(room / 2)));
      else second = second.slice(0, Math.max(room - first.length, Math.floor(room / 2)));
    }
    const ids = [this.cls, ...first, this.sep, ...second, this.sep];
    return { ids, typeIds: ids.map((_, i) => (i < first.length + 2 ? 0 : 1)) };
  }

  /** BERT's basic tokenizer: the words and punctuation marks WordPiece then splits. */
  #basic(text: string): string[] {
    let clean = "";
    for (const ch of text) {
      const code = ch.codePointAt(0)!;
      if (code === 0 || code === 0xfffd || isControl(ch)) continue;
      if (isCjk(code)) clean += ` ${ch} `;
      else clean += /\s/u.test(ch) ? " " : ch;
    }
    const words: string[] = [];
    for (let token of clean.split(" ")) {
      if (token === "") continue;
      if (this.#o.lowercase) token = token.toLowerCase();
      if (this.#o.stripAccents) token = token.normalize("NFD").replace(/\p{Mn}/gu, "");
      let current = "";
      for (const ch of token) {
        if (isPunctuation(ch)) {
          if (current) words.push(current);
          words.push(ch);
          current = "";
        } else current += ch;
      }
      if (current) words.push(current);
    }
    return words;
  }

  #wordPiece(word: string): number[] {
    const chars = [...word];
    if (chars.length > this.#o.maxCharsPerWord) return [this.#unk];
    const pieces: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let found: number | undefined;
      while (start < end) {
        const piece = (start > 0 ? this.#o.prefix : "") + chars.slice(start, end).join("");
        found = this.#o.vocab.get(piece);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) return [this.#unk];
      pieces.push(found);
      start = end;
    }
    return pieces;
  }
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ContextSmithError("INVALID_ARGUMENT", `Cannot read ${path}: ${(error as Error).message}`);
  }
}

function isControl(ch: string): boolean {
  if (ch === "\t" || ch === "\n" || ch === "\r") return false;
  return /\p{Cc}|\p{Cf}/u.test(ch);
}

/** BERT's punctuation: ASCII symbols (`$`, `^`, `` ` `` …) as well as Unicode punctuation. */
function isPunctuation(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)) return true;
  return /\p{P}/u.test(ch);
}

function isCjk(c: number): boolean {
  return (
    (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x20000 && c <= 0x2a6df) || (c >= 0x2a700 && c <= 0x2b73f) ||
    (c >= 0x2b740 && c <= 0x2b81f) || (c >= 0x2b820 && c <= 0x2ceaf) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0x2f800 && c <= 0x2fa1f)
  );
}
