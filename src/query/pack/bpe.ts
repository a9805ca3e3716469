/**
 * Token counts by byte-pair encoding in plain JavaScript, from tiktoken's own rank files: the same
 * counts as tiktoken's `encode_ordinary(text).length`, without its WebAssembly set-up. That set-up
 * (170 ms for cl100k_base, and 60 ms to load the module) was the longest part of a one-shot
 * `ctxsmith context`; this table is ready in 45–60 ms.
 *
 * The rank table is one byte array with an open-addressing hash index over it, built in one pass
 * over the rank file's base64; a word is split by the encoding's own pattern (translated for
 * JavaScript's regular expressions, see {@link jsPattern}) and merged pair by pair, lowest rank
 * first, leftmost among equals, as tiktoken's `_byte_pair_merge` does.
 */

import { deserialize, serialize } from "node:v8";
import zlib from "node:zlib";

/** zlib's CRC-32 (Node 20.15+, 22.2+); without it nothing is saved or loaded, and the rank file is read. */
const crc32: ((data: Uint8Array) => number) | undefined = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

/** No rank: the bytes are no token. */
const NONE = 0xffffffff;
/** Words counted and remembered, at most (a code base repeats its words). */
const MEMO_WORDS = 65_536;
/** Longer words are counted each time, not remembered. */
const MEMO_LENGTH = 64;
/** Scratch memory a counter keeps between texts, at most, in elements. */
const SCRATCH_KEPT = 1 << 16;

/** Unicode's White_Space, which the encodings' `\s` means (JavaScript's `\s` adds U+FEFF and lacks U+0085). */
const WHITE_SPACE = "\\t-\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
/** Characters outside ASCII that a case-insensitive ASCII letter also matches (Unicode simple case folding). */
const FOLDS: Readonly<Record<string, string>> = { s: "\u017f", k: "\u212a" };

/** The version of {@link BpeCounter.save}'s form. */
const SAVED_FORMAT = 0x42504501;

/** What a rank table is made of. */
interface TableParts {
  bytes: Uint8Array;
  starts: Uint32Array;
  ranks: Uint32Array;
  slots: Uint32Array;
  longest: number;
}

/** A saved counter: its pattern as the rank file wrote it, and its table. */
interface Saved extends TableParts {
  source: string;
}

/** A tiktoken rank file's parts: its pattern (`pat_str`) and its ranks (`bpe_ranks`: lines of `! offset base64…`). */
export interface RankFile {
  pat_str: string;
  bpe_ranks: string;
}

/** Counts the tokens of texts in one encoding. */
export class BpeCounter {
  readonly #table: RankTable;
  readonly #source: string;
  readonly #pattern: RegExp;
  readonly #memo = new Map<string, number>();
  readonly #encoder = new TextEncoder();
  #bytes = new Uint8Array(1024);
  readonly #merge = new Merger();

  /**
   * Null when the encoding's pattern uses a construct {@link jsPattern} does not translate, or this
   * JavaScript's Unicode tables are ones it does not know how to match to tiktoken's.
   */
  static from(file: RankFile, unicode: string | undefined = process.versions.unicode): BpeCounter | null {
    const pattern = jsPattern(file.pat_str, unicode);
    return pattern ? new BpeCounter(RankTable.parse(file.bpe_ranks), file.pat_str, pattern) : null;
  }

  /**
   * A counter from its {@link BpeCounter.save}d form (a few milliseconds, where reading the rank
   * file takes tens); null when the bytes are not a whole saved counter of this version (cut
   * short, changed on disk: their checksum says so).
   */
  static load(bytes: Uint8Array, unicode: string | undefined = process.versions.unicode): BpeCounter | null {
    if (bytes.length < 8 || !crc32) return null;
    const head = new DataView(bytes.buffer, bytes.byteOffset, 8);
    const body = bytes.subarray(8);
    if (head.getUint32(0) !== SAVED_FORMAT || head.getUint32(4) !== crc32(body)) return null;
    let saved: Saved;
    try {
      saved = deserialize(body) as Saved;
    } catch {
      return null;
    }
    if (typeof saved?.source !== "string") return null;
    const table = RankTable.from(saved);
    const pattern = table && jsPattern(saved.source, unicode);
    return table && pattern ? new BpeCounter(table, saved.source, pattern) : null;
  }

  private constructor(table: RankTable, source: string, pattern: RegExp) {
    this.#table = table;
    this.#source = source;
    this.#pattern = pattern;
  }

  /**
   * The counter's tables, to {@link BpeCounter.load} in another process: the format's version and
   * a CRC-32, then the tables; null where this Node has no CRC-32.
   */
  save(): Buffer | null {
    if (!crc32) return null;
    const body = serialize({ source: this.#source, ...this.#table.parts() } satisfies Saved);
    const head = Buffer.alloc(8);
    head.writeUInt32BE(SAVED_FORMAT, 0);
    head.writeUInt32BE(crc32(body), 4);
    return Buffer.concat([head, body]);
  }

  count(text: string): number {
    const pattern = this.#pattern;
    pattern.lastIndex = 0;
    let tokens = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const word = m[0];
      if (word === "") {
        pattern.lastIndex++; // never happens with the encodings' patterns; never loops either
        continue;
      }
      let n = this.#memo.get(word);
      if (n === undefined) {
        n = this.#countWord(word);
        if (word.length <= MEMO_LENGTH) {
          if (this.#memo.size >= MEMO_WORDS) this.#memo.clear();
          // A copy: a match of 13 characters or more is a slice that keeps the whole text alive.
          this.#memo.set(word.length < 13 ? word : ` ${word}`.slice(1), n);
        }
      }
      tokens += n;
    }
    // A huge word's scratch memory is not kept for the next texts.
    if (this.#bytes.length > SCRATCH_KEPT) this.#bytes = new Uint8Array(1024);
    this.#merge.trim();
    return tokens;
  }

  #countWord(word: string): number {
    if (this.#bytes.length < word.length * 3) this.#bytes = new Uint8Array(word.length * 3);
    const bytes = this.#bytes;
    let length = 0;
    for (; length < word.length; length++) {
      const c = word.charCodeAt(length);
      if (c >= 0x80) break;
      bytes[length] = c;
    }
    // Past ASCII: UTF-8, a lone surrogate as U+FFFD (as tiktoken receives it).
    if (length < word.length) length = this.#encoder.encodeInto(word, bytes).written;
    if (length === 1 || this.#table.rank(bytes, 0, length) !== NONE) return 1;
    return this.#merge.count(this.#table, bytes, length);
  }
}

/**
 * Byte-pair merging of one word: parts as a linked list by their first byte, each with the rank of
 * itself joined to the next, and a heap of (rank, position) with a version per part, so that a
 * long word (a run of symbols, a line of text in a script without spaces) costs n log n, not n².
 */
class Merger {
  #next = new Uint32Array(0);
  #prev = new Int32Array(0);
  #rank = new Uint32Array(0);
  #version = new Uint32Array(0);
  readonly #heap = new PairHeap();

  /** Lets go of the arrays a huge word needed. */
  trim(): void {
    this.#heap.trim();
    if (this.#next.length <= SCRATCH_KEPT) return;
    this.#next = new Uint32Array(0);
    this.#prev = new Int32Array(0);
    this.#rank = new Uint32Array(0);
    this.#version = new Uint32Array(0);
  }

  /** How many tokens `bytes[0, length)` is. */
  count(table: RankTable, bytes: Uint8Array, length: number): number {
    if (this.#next.length < length + 1) {
      const size = Math.max(length + 1, this.#next.length * 2);
      this.#next = new Uint32Array(size);
      this.#prev = new Int32Array(size);
      this.#rank = new Uint32Array(size);
      this.#version = new Uint32Array(size);
    }
    const next = this.#next;
    const prev = this.#prev;
    const rank = this.#rank;
    const version = this.#version;
    const heap = this.#heap;
    heap.clear();
    for (let i = 0; i < length; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
      version[i] = 0;
      rank[i] = i + 2 <= length ? table.rank(bytes, i, i + 2) : NONE;
      if (rank[i] !== NONE) heap.push(rank[i]!, i, 0);
    }
    let parts = length;
    while (heap.size > 0) {
      const at = heap.topPosition();
      const r = heap.topRank();
      const v = heap.topVersion();
      heap.pop();
      // Stale: the part was merged into its predecessor, or its rank changed since.
      if (version[at] !== v || rank[at] !== r) continue;
      const gone = next[at]!;
      const after = next[gone]!;
      next[at] = after;
      if (after < length) prev[after] = at;
      version[gone] = NONE; // merged away: its heap entries are stale
      parts--;
      // The merged part joined to the next, and the previous part joined to the merged one.
      rank[at] = after < length ? table.rank(bytes, at, next[after]!) : NONE;
      version[at]!++;
      if (rank[at] !== NONE) heap.push(rank[at]!, at, version[at]!);
      const before = prev[at]!;
      if (before >= 0) {
        rank[before] = table.rank(bytes, before, after);
        version[before]!++;
        if (rank[before] !== NONE) heap.push(rank[before]!, before, version[before]!);
      }
    }
    return parts;
  }
}

/** A binary min-heap of (rank, position, version), ordered by rank and then position: the leftmost lowest pair first. */
class PairHeap {
  #rank = new Uint32Array(64);
  #position = new Uint32Array(64);
  #version = new Uint32Array(64);
  size = 0;

  clear(): void {
    this.size = 0;
  }

  trim(): void {
    if (this.#rank.length <= SCRATCH_KEPT) return;
    this.#rank = new Uint32Array(64);
    this.#position = new Uint32Array(64);
    this.#version = new Uint32Array(64);
  }

  topRank(): number {
    return this.#rank[0]!;
  }

  topPosition(): number {
    return this.#position[0]!;
  }

  topVersion(): number {
    return this.#version[0]!;
  }

  push(rank: number, position: number, version: number): void {
    if (this.size === this.#rank.length) this.#grow();
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(rank, position, parent)) break;
      this.#move(parent, i);
      i = parent;
    }
    this.#set(i, rank, position, version);
  }

  pop(): void {
    const last = --this.size;
    if (last === 0) return;
    const rank = this.#rank[last]!;
    const position = this.#position[last]!;
    const version = this.#version[last]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= last) break;
      if (child + 1 < last && this.#less(this.#rank[child + 1]!, this.#position[child + 1]!, child)) child++;
      if (!this.#lessThan(this.#rank[child]!, this.#position[child]!, rank, position)) break;
      this.#move(child, i);
      i = child;
    }
    this.#set(i, rank, position, version);
  }

  /** Whether (rank, position) comes before the entry at `i`. */
  #less(rank: number, position: number, i: number): boolean {
    return this.#lessThan(rank, position, this.#rank[i]!, this.#position[i]!);
  }

  #lessThan(rank: number, position: number, otherRank: number, otherPosition: number): boolean {
    return rank < otherRank || (rank === otherRank && position < otherPosition);
  }

  #move(from: number, to: number): void {
    this.#set(to, this.#rank[from]!, this.#position[from]!, this.#version[from]!);
  }

  #set(i: number, rank: number, position: number, version: number): void {
    this.#rank[i] = rank;
    this.#position[i] = position;
    this.#version[i] = version;
  }

  #grow(): void {
    const grow = (from: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> => {
      const to = new Uint32Array(from.length * 2);
      to.set(from);
      return to;
    };
    this.#rank = grow(this.#rank);
    this.#position = grow(this.#position);
    this.#version = grow(this.#version);
  }
}

/** Every token's bytes in one array, found by an open-addressing hash index (FNV-1a) over them. */
class RankTable {
  /** A table from its {@link RankTable.parts}, or null when they do not fit together. */
  static from(parts: TableParts): RankTable | null {
    const { bytes, starts, ranks, slots, longest } = parts;
    if (!(bytes instanceof Uint8Array) || !(starts instanceof Uint32Array) || !(ranks instanceof Uint32Array) || !(slots instanceof Uint32Array)) return null;
    const count = ranks.length;
    // At most half full, as #index makes it: a lookup always meets an empty slot.
    if (count === 0 || starts.length !== count + 1 || slots.length < 2 * count || (slots.length & (slots.length - 1)) !== 0 || !Number.isInteger(longest)) return null;
    let last = 0;
    for (const start of starts) {
      if (start < last) return null;
      last = start;
    }
    if (last > bytes.length) return null;
    for (const slot of slots) if (slot > count) return null;
    const table = new RankTable(bytes, starts, ranks, slots, longest);
    // Tokens spread over the table are found where this code's hash puts them: a table saved by a
    // version that hashed otherwise is refused, not read wrong.
    for (let token = 0; token < count; token += Math.max(1, Math.floor(count / 256))) {
      if (table.rank(bytes, starts[token]!, starts[token + 1]!) !== ranks[token]) return null;
    }
    return table;
  }

  parts(): TableParts {
    return { bytes: this.bytes, starts: this.starts, ranks: this.ranks, slots: this.slots, longest: this.longest };
  }

  private constructor(
    private readonly bytes: Uint8Array,
    /** Token i's bytes are `bytes[starts[i], starts[i + 1])`. */
    private readonly starts: Uint32Array,
    private readonly ranks: Uint32Array,
    /** Token index + 1 per slot, 0 for an empty slot. */
    private readonly slots: Uint32Array,
    private readonly longest: number,
  ) {}

  /** Reads `bpe_ranks` (lines of `! offset` then the tokens of ranks offset, offset + 1, … in base64, space-separated). */
  static parse(text: string): RankTable {
    // Base64 is 4 characters for 3 bytes: the text's length bounds the bytes and the tokens.
    const bytes = new Uint8Array(Math.ceil((text.length * 3) / 4));
    const starts: number[] = [];
    const ranks: number[] = [];
    let end = 0;
    let rank = 0;
    let i = 0;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x0a || c === 0x20) {
        i++;
        continue;
      }
      if (c === 0x21) {
        // "! offset": the next tokens' first rank.
        i += 2;
        let offset = 0;
        for (; i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39; i++) offset = offset * 10 + text.charCodeAt(i) - 0x30;
        rank = offset;
        continue;
      }
      starts.push(end);
      ranks.push(rank++);
      let bits = 0;
      let held = 0;
      for (; i < text.length; i++) {
        const d = BASE64[text.charCodeAt(i)]!;
        if (d === 255) break; // a space, a newline or "=" padding ends the token
        bits = (bits << 6) | d;
        held += 6;
        if (held >= 8) {
          held -= 8;
          bytes[end++] = (bits >> held) & 0xff;
        }
      }
      while (i < text.length && text.charCodeAt(i) === 0x3d) i++;
    }
    starts.push(end);
    const tokenStarts = Uint32Array.from(starts);
    const { slots, longest } = RankTable.#index(bytes, tokenStarts);
    return new RankTable(bytes, tokenStarts, Uint32Array.from(ranks), slots, longest);
  }

  /** The rank of the token `data[from, to)`, or {@link NONE}. */
  rank(data: Uint8Array, from: number, to: number): number {
    if (to - from > this.longest) return NONE;
    const mask = this.slots.length - 1;
    for (let slot = hash(data, from, to) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return NONE;
      const token = entry - 1;
      const start = this.starts[token]!;
      if (this.starts[token + 1]! - start !== to - from) continue;
      let same = true;
      for (let k = 0; k < to - from; k++) {
        if (this.bytes[start + k] !== data[from + k]) {
          same = false;
          break;
        }
      }
      if (same) return this.ranks[token]!;
    }
  }

  /** The hash index over the tokens (at most half full), and the longest token's length. */
  static #index(bytes: Uint8Array, starts: Uint32Array): { slots: Uint32Array; longest: number } {
    const count = starts.length - 1;
    let size = 1;
    while (size < count * 2) size <<= 1;
    const slots = new Uint32Array(size);
    const mask = size - 1;
    let longest = 0;
    for (let token = 0; token < count; token++) {
      const from = starts[token]!;
      const to = starts[token + 1]!;
      longest = Math.max(longest, to - from);
      let slot = hash(bytes, from, to) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = token + 1;
    }
    return { slots, longest };
  }
}

/** Base64 digit values by character code; 255 for anything else. */
const BASE64 = (() => {
  const table = new Uint8Array(128).fill(255);
  const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < digits.length; i++) table[digits.charCodeAt(i)] = i;
  return table;
})();

function hash(data: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ data[i]!, 0x01000193);
  return h >>> 0;
}

/**
 * Letters, digits and marks that Unicode 17.0 added: tiktoken's regex tables (regex-syntax 0.8,
 * Unicode 16.0) hold them unassigned, so a JavaScript with Unicode 17 tables must not count them
 * as `\p{L}`, `\p{N}` or `\p{M}` (found by comparing every code point in twelve contexts, for
 * all six encodings).
 */
const UNICODE_17_ADDITIONS =
  "\\u088f\\u0c5c\\u0cdc\\u1acf-\\u1add\\u1ae0-\\u1aeb\\ua7ce\\ua7cf\\ua7d2\\ua7d4\\ua7f1\\u{10940}-\\u{10959}\\u{10ec5}-\\u{10ec7}\\u{10efa}\\u{10efb}" +
  "\\u{11b60}-\\u{11b67}\\u{11db0}-\\u{11ddb}\\u{11de0}-\\u{11de9}\\u{16ea0}-\\u{16eb8}\\u{16ebb}-\\u{16ed3}\\u{16ff2}-\\u{16ff6}\\u{187f8}-\\u{187ff}" +
  "\\u{18d09}-\\u{18d1e}\\u{18d80}-\\u{18df2}\\u{1e6c0}-\\u{1e6de}\\u{1e6e0}-\\u{1e6f5}\\u{1e6fe}\\u{1e6ff}\\u{2b73a}-\\u{2b73f}\\u{2cea2}-\\u{2cead}\\u{323b0}-\\u{33479}";

/** What each Unicode version of JavaScript's tables must leave out of a property to match tiktoken's (16.0). */
const UNASSIGNED_IN_16: Readonly<Record<string, string>> = { "16.0": "", "17.0": UNICODE_17_ADDITIONS };

/** Escapes the patterns use, besides `\s`, `\S`, `\p{…}` and `\P{…}`: the same in both engines. */
const PLAIN_ESCAPES = new Set(["r", "n", "t"]);
/** Characters that a class of JavaScript's `v` mode takes only escaped. */
const CLASS_SYNTAX = new Set([..."()[]{}/|&!#%,:;<=>@`~"]);

/**
 * An encoding's pattern (written for Rust's regex engines) for JavaScript (`v` mode): `\s` and
 * `\S` as Unicode's White_Space, `(?i:…)` groups of ASCII letters with each letter's cases (and the
 * characters that fold to it), each `\p{…}` less what `unicode`'s tables assign and tiktoken's do
 * not. Null when the pattern uses anything else (`.`, `\d`, `\w`, `\b`, possessive quantifiers,
 * set operations, a class or an escape inside `(?i:…)`), or `unicode` is a version whose tables
 * were not compared with tiktoken's: then tiktoken itself counts.
 */
export function jsPattern(pattern: string, unicode: string | undefined = process.versions.unicode): RegExp | null {
  const version = unicode?.split(".").slice(0, 2).join(".");
  const unassigned = version === undefined ? undefined : UNASSIGNED_IN_16[version];
  if (unassigned === undefined) return null;
  const property = (escape: string): string => (unassigned === "" ? escape : `[${escape}--[${unassigned}]]`);
  let out = "";
  let inClass = false;
  let caseless = -1; // depth of the (?i: group, -1 outside one
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      const e = pattern[i + 1];
      if (e === undefined || caseless >= 0) return null;
      i++;
      if (e === "s") out += inClass ? WHITE_SPACE : `[${WHITE_SPACE}]`;
      else if (e === "S") {
        if (inClass) return null;
        out += `[^${WHITE_SPACE}]`;
      } else if (e === "p") {
        const close = pattern.indexOf("}", i);
        if (pattern[i + 1] !== "{" || close < 0) return null;
        out += property(`\\${pattern.slice(i, close + 1)}`);
        i = close;
      } else if (PLAIN_ESCAPES.has(e) || !/[\p{L}\p{N}_]/u.test(e)) out += `\\${e}`;
      else return null; // \d, \w, \b, \P and the like: ASCII in one engine, Unicode in the other
      continue;
    }
    if (inClass) {
      if (c === "]") {
        inClass = false;
        out += c;
      } else if (c === "-" || c === "[" || pattern.startsWith("&&", i) || pattern.startsWith("~~", i)) return null;
      else out += CLASS_SYNTAX.has(c) ? `\\${c}` : c;
      continue;
    }
    if (c === "[") {
      if (caseless >= 0) return null;
      inClass = true;
      out += c;
      if (pattern[i + 1] === "^") {
        out += "^";
        i++;
      }
      continue;
    }
    if (c === "(") {
      if (pattern.startsWith("(?i:", i)) {
        if (caseless >= 0) return null;
        caseless = depth;
        out += "(?:";
        i += 3;
      } else if (pattern.startsWith("(?:", i) || pattern.startsWith("(?!", i) || pattern.startsWith("(?=", i)) {
        out += pattern.slice(i, i + 3);
        i += 2;
      } else if (pattern[i + 1] === "?") return null;
      else out += c;
      depth++;
      continue;
    }
    if (c === ")") {
      depth--;
      if (depth === caseless) caseless = -1;
      out += c;
      continue;
    }
    if (c === ".") return null; // JavaScript's also leaves out \r, U+2028 and U+2029
    // Possessive quantifiers (`?+`, `++`, `*+`) have no JavaScript form.
    if ((c === "+" || c === "?" || c === "*") && pattern[i + 1] === "+") return null;
    if (caseless >= 0 && c.toLowerCase() !== c.toUpperCase()) {
      if (!/[a-z]/i.test(c)) return null; // a letter with cases beyond ASCII's
      const lower = c.toLowerCase();
      out += `[${lower}${c.toUpperCase()}${FOLDS[lower] ?? ""}]`;
      continue;
    }
    out += c;
  }
  if (inClass || depth !== 0) return null;
  try {
    return new RegExp(out, "gv");
  } catch {
    return null;
  }
}
