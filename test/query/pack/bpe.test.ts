import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BpeCounter, jsPattern, type RankFile } from "../../../src/query/pack/bpe.js";
import { tiktokenCounter, tokenCounter } from "../../../src/query/pack/tokens.js";

const require = createRequire(import.meta.url);
const COMPARED_UNICODE = new Set(["16.0", "17.0"]);
const ENCODINGS = ["cl100k_base", "o200k_base", "p50k_base", "p50k_edit", "r50k_base", "gpt2"];

/** Real code (this project's sources), and the cases where a regex engine or a merge order could differ. */
function corpus(): string[] {
  const texts: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (texts.length < 80) texts.push(readFileSync(path, "utf8"));
    }
  };
  walk(join(import.meta.dirname, "../../../src/query"));
  return [
    ...texts,
    "",
    "it's IT'S It'S don't we'LL they'Re you'VE I'M he'D it'\u017f x'k",
    "12345678 3.14159 1e10 0xDEADBEEF ١٢٣٤ ½",
    "ünïcödé naïve façade 日本語のテキストです 한국어 русский текст العربية",
    "😀😀👩‍👩‍👧 \u0085nel\u0085 \ufeffbom\ufeff nbsp\u00a0nbsp \u2028\u2029 \u3000",
    "a\r\n\r\n  b  \t\t c\n\n\n   \n d   ",
    "=".repeat(5000),
    "中".repeat(3000),
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".repeat(40),
    "lone \ud800 surrogate \udfff here",
    " ".repeat(200) + "x" + "\t".repeat(50),
    "<|endoftext|> special tokens are plain text <|fim_prefix|>",
    "ſtraße STRASSE Kelvin\u212a ǅungla",
    // Letters, marks and ideographs of Unicode 17, which tiktoken's tables (16.0) hold unassigned.
    "\u088f's \u{323b0}'s \u1acf's a\u{11db0}b \u{1e6c0}\u{1e6c0} x\ua7ce",
  ];
}

describe("BpeCounter", () => {
  const texts = corpus();

  it.each(ENCODINGS)("counts %s exactly as tiktoken does", (encoding) => {
    const file = JSON.parse(readFileSync(require.resolve(`tiktoken/encoders/${encoding}.json`), "utf8")) as RankFile;
    const bpe = BpeCounter.from(file);
    // On a JavaScript whose Unicode tables were never compared with tiktoken's, tiktoken counts.
    expect(bpe !== null).toBe(COMPARED_UNICODE.has(process.versions.unicode?.split(".").slice(0, 2).join(".") ?? ""));
    const counter = bpe ?? tokenCounter(encoding);
    const reference = tiktokenCounter(encoding);
    try {
      const ours = texts.map((t) => counter.count(t));
      expect(ours).toEqual(texts.map((t) => reference.count(t)));
      // Counted again from memory of its words: the same.
      expect(texts.map((t) => counter.count(t))).toEqual(ours);
      expect(ours.reduce((a, b) => a + b, 0)).toBeGreaterThan(10_000);
    } finally {
      reference.free();
    }
  });

  // On a JavaScript whose Unicode tables were never compared, tiktoken counts (above) and nothing is saved.
  it.skipIf(!COMPARED_UNICODE.has(process.versions.unicode?.split(".").slice(0, 2).join(".") ?? ""))("saves its tables and loads them back counting the same; refuses bytes that are not a whole saved counter", () => {
    const file = JSON.parse(readFileSync(require.resolve("tiktoken/encoders/o200k_base.json"), "utf8")) as RankFile;
    const bpe = BpeCounter.from(file)!;
    const saved = bpe.save()!;
    expect(saved).not.toBeNull();
    const loaded = BpeCounter.load(saved);
    expect(loaded).not.toBeNull();
    expect(texts.map((t) => loaded!.count(t))).toEqual(texts.map((t) => bpe.count(t)));

    expect(BpeCounter.load(Buffer.from("not a counter"))).toBeNull();
    expect(BpeCounter.load(saved.subarray(0, saved.length >> 1))).toBeNull();
    expect(BpeCounter.load(new Uint8Array(0))).toBeNull();
    // Bytes changed on disk (in the middle of the tables): the checksum refuses them.
    const damaged = Buffer.from(saved);
    for (let i = damaged.length >> 1; i < (damaged.length >> 1) + 4096; i++) damaged[i] = damaged[i]! ^ 0x55;
    expect(BpeCounter.load(damaged)).toBeNull();
  });

  it.skipIf(!COMPARED_UNICODE.has(process.versions.unicode?.split(".").slice(0, 2).join(".") ?? ""))("keeps its tables in the cache folder: loaded from there the next time, rebuilt past a damaged or unwritable one", () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxsmith-bpe-"));
    const sample = texts.slice(0, 20);
    const expected = sample.map((t) => tokenCounter("cl100k_base").count(t));
    try {
      const first = tokenCounter("cl100k_base", dir);
      expect(sample.map((t) => first.count(t))).toEqual(expected);
      const saved = readdirSync(join(dir, "bpe"));
      expect(saved).toHaveLength(1);
      expect(saved[0]).toMatch(/^cl100k_base-[0-9a-f]{8}-\d+-\d+-\d+-\d+\.bin$/);
      const path = join(dir, "bpe", saved[0]!);
      const written = statSync(path).mtimeMs;
      expect(sample.map((t) => tokenCounter("cl100k_base", dir).count(t))).toEqual(expected);
      expect(statSync(path).mtimeMs).toBe(written);

      writeFileSync(path, "damaged");
      expect(sample.map((t) => tokenCounter("cl100k_base", dir).count(t))).toEqual(expected);
      expect(readFileSync(path).length).toBeGreaterThan(1000);

      const blocked = join(dir, "blocked");
      writeFileSync(blocked, "a file where the folder would be");
      expect(sample.map((t) => tokenCounter("cl100k_base", blocked).count(t))).toEqual(expected);
      const readOnly = join(dir, "read-only");
      mkdirSync(join(readOnly, "bpe"), { recursive: true });
      chmodSync(join(readOnly, "bpe"), 0o555);
      expect(sample.map((t) => tokenCounter("cl100k_base", readOnly).count(t))).toEqual(expected);
    } finally {
      if (existsSync(join(dir, "read-only", "bpe"))) chmodSync(join(dir, "read-only", "bpe"), 0o755);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is what tokenCounter gives for the encodings tiktoken ships, and tiktoken refuses an unknown one", () => {
    const counter = tokenCounter("cl100k_base");
    expect(counter.count("def render(self):\n    return 1\n")).toBe(tiktokenCounter("cl100k_base").count("def render(self):\n    return 1\n"));
    expect(() => tokenCounter("cl200k_nope")).toThrow(/Unknown token encoding/);
  });
});

describe("jsPattern", () => {
  it("reads \\s as Unicode's White_Space and (?i:…) as both cases", () => {
    const pattern = jsPattern("(?i:'s|'ll)|\\s+(?!\\S)|\\s+|[^\\s\\p{L}]+|\\p{L}+")!;
    const words = (text: string) => [...text.matchAll(pattern)].map((m) => m[0]);
    expect(words("it'S we'Ll")).toEqual(["it", "'S", " ", "we", "'Ll"]);
    // U+0085 is white space to Rust's regex and not to JavaScript's \s; U+FEFF the other way round.
    expect(words("a\u0085b")).toEqual(["a", "\u0085", "b"]);
    expect(words("a\ufeffb")).toEqual(["a", "\ufeff", "b"]);
    expect(words("it'\u017f")).toEqual(["it", "'\u017f"]);
  });

  it("refuses what it does not translate, so that tiktoken counts instead", () => {
    expect(jsPattern("\\p{L}++")).toBeNull(); // possessive
    expect(jsPattern("(?<name>a)")).toBeNull();
    expect(jsPattern("(?i:[a-z])")).toBeNull();
    expect(jsPattern("[\\S]")).toBeNull();
    expect(jsPattern("(a")).toBeNull();
    // ASCII in JavaScript, Unicode in Rust; `.` leaves out other line ends; set operations; letters with cases beyond ASCII.
    for (const p of ["\\d+", "\\w+", "\\bx", "a.b", "[\\p{L}&&\\p{Lu}]", "(?i:é)", "(?i:\\p{Lu})", "[a-z]"]) expect(jsPattern(p), p).toBeNull();
  });

  it("leaves out of \\p{…} what tiktoken's Unicode tables do not assign, and refuses tables it has not compared", () => {
    const letters = (unicode: string) => [..."\u088fa\u{323b0}".matchAll(jsPattern("\\p{L}+", unicode)!)].map((m) => m[0]);
    expect(letters("17.0")).toEqual(["a"]);
    expect(jsPattern("\\p{L}+", "15.1")).toBeNull();
    expect(jsPattern("\\p{L}+", "18.0")).toBeNull();
    expect(BpeCounter.from({ pat_str: "\\p{L}+", bpe_ranks: "! 0 YQ==" }, "15.1")).toBeNull();
  });
});
