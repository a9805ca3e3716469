/**
 * Token counts by byte-pair encoding in plain JavaScript, from tiktoken's own rank files: the same
 * counts as tiktoken's `encode_ordinary(text).length`, without its WebAssembly set-up. That set-up
 * (170 ms for cl100k_base, and 60 ms to load the module) was the longest part of a one-shot
 * `ctxsmith context`; this table is ready in about 25 ms.
 *
 * The rank table is one byte array with an open-addressing hash index over it, built in one pass
 * over the rank file's base64; a word is split by the encoding's own pattern (translated for
 * JavaScript's regular expressions, see {@link jsPattern}) and merged pair by pair, lowest rank
 * first, leftmost among equals, as tiktoken's `_byte_pair_merge` does.
 */

/** No rank: the bytes are no token. */
const NONE = 0xffffffff;
/** Words counted and remembered, at most (a code base repeats its words). */
const MEMO_WORDS = 65_536;

/** Unicode's White_Space, which the encodings' `\s` means (JavaScript's `\s` adds U+FEFF and lacks U+0085). */
const WHITE_SPACE = "\\t-\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
/** Characters outside ASCII that a case-insensitive ASCII letter also matches (Unicode simple case folding). */
const FOLDS: Readonly<Record<string, string>> = { s: "\u017f", k: "\u212a" };

/** A tiktoken rank file's parts: its pattern (`pat_str`) and its ranks (`bpe_ranks`: lines of `! offset base64…`). */
export interface RankFile {
  pat_str: string;
  bpe_ranks: string;
}

/** Counts the tokens of texts in one encoding. */
export class BpeCounter {
  readonly #table: RankTable;
  readonly #pattern: RegExp;
  readonly #memo = new Map<string, number>();
  readonly #encoder = new TextEncoder();
  #bytes = new Uint8Array(1024);
  readonly #merge = new Merger();

  /** Null when the encoding's pattern uses a construct {@link jsPattern} does not translate. */
  static from(file: RankFile): BpeCounter | null {
    const pattern = jsPattern(file.pat_str);
    return pattern ? new BpeCounter(RankTable.parse(file.bpe_ranks), pattern) : null;
  }

  private constructor(table: RankTable, pattern: RegExp) {
    this.#table = table;
    this.#pattern = pattern;
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
        if (this.#memo.size >= MEMO_WORDS) this.#memo.clear();
        this.#memo.set(word, n);
      }
      tokens += n;
    }
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
    const count = ranks.length;
    let size = 1;
    while (size < count * 2) size <<= 1;
    const table = new RankTable(bytes, Uint32Array.from(starts), Uint32Array.from(ranks), new Uint32Array(size), 0);
    return table.#indexed(count);
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

  #indexed(count: number): RankTable {
    const mask = this.slots.length - 1;
    let longest = 0;
    for (let token = 0; token < count; token++) {
      const from = this.starts[token]!;
      const to = this.starts[token + 1]!;
      longest = Math.max(longest, to - from);
      let slot = hash(this.bytes, from, to) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = token + 1;
    }
    return new RankTable(this.bytes, this.starts, this.ranks, this.slots, longest);
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
 * An encoding's pattern (written for Rust's regex engines) for JavaScript: `\s` and `\S` as
 * Unicode's White_Space, `(?i:…)` groups of ASCII letters with each letter's cases (and the
 * characters that fold to it). Null when the pattern uses anything else this does not translate
 * (then tiktoken itself counts).
 */
export function jsPattern(pattern: string): RegExp | null {
  let out = "";
  let inClass = false;
  let caseless = -1; // depth of the (?i: group, -1 outside one
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      const e = pattern[i + 1];
      if (e === undefined) return null;
      i++;
      if (e === "s") out += inClass ? WHITE_SPACE : `[${WHITE_SPACE}]`;
      else if (e === "S") {
        if (inClass) return null;
        out += `[^${WHITE_SPACE}]`;
      } else if (e === "p" || e === "P") {
        const close = pattern.indexOf("}", i);
        if (close < 0) return null;
        out += `\\${pattern.slice(i, close + 1)}`;
        i = close;
      } else out += `\\${e}`;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      out += c;
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += c;
      if (caseless >= 0) return null; // a class inside (?i:…): not needed by any encoding
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
    // Possessive quantifiers (`?+`, `++`, `*+`) have no JavaScript form.
    if ((c === "+" || c === "?" || c === "*") && pattern[i + 1] === "+") return null;
    if (caseless >= 0 && /[a-z]/i.test(c)) {
      const lower = c.toLowerCase();
      out += `[${lower}${c.toUpperCase()}${FOLDS[lower] ?? ""}]`;
      continue;
    }
    out += c;
  }
  if (inClass || depth !== 0) return null;
  try {
    return new RegExp(out, "gu");
  } catch {
    return null;
  }
}
