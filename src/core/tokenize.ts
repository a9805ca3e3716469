/**
 * The code-aware tokenizer shared by indexing and queries.
 *
 * `parseHTTPResponse_v2` yields `parsehttpresponse_v2` (the whole identifier, so exact names
 * still match) and its parts `parse`, `http`, `response`, `v`, `2`... minus the parts too short to
 * mean anything. Lower case throughout.
 */

/** Tokens shorter than this are dropped (single letters carry no signal). */
export const MIN_LEN = 2;
/** Longer words are hashes, base64 or data: dropped, with their parts. */
export const MAX_LEN = 64;

/**
 * Calls `emit` for every token of `text`, in order, duplicates included. A word is a run of
 * `[A-Za-z0-9_$]`; its parts are what `/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g` matches in it
 * (camelCase, PascalCase with acronyms: HTTPServer -> HTTP Server, letter and digit runs). Scanned
 * by character codes rather than with those patterns: a match array for every word and part made
 * the tokenizer a quarter slower (sympy's 28 MB of Python: 440 against 320 ms), with the same
 * tokens for every file of the benchmark's repositories.
 */
export function forEachToken(text: string, emit: (token: string) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isWordChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    let lowerAlpha = true;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (isLower(c)) continue;
      if (!isWordChar(c)) break;
      lowerAlpha = false;
    }
    const length = i - start;
    if (length > MAX_LEN) continue;
    if (lowerAlpha) {
      // The common case (plain lower-case words) needs no splitting.
      if (length >= MIN_LEN) emit(text.slice(start, i));
      continue;
    }
    const word = text.slice(start, i);
    const lower = word.toLowerCase();
    let parts = 0;
    let single = "";
    for (let j = 0; j < length; ) {
      const end = partEnd(word, j);
      if (end === j) {
        // `_` and `$` separate parts.
        j++;
        continue;
      }
      parts++;
      const part = lower.slice(j, end);
      if (parts === 1) single = part;
      if (part.length >= MIN_LEN) emit(part);
      j = end;
    }
    // The whole identifier as well, when it is more than its one part.
    if ((parts !== 1 || single !== lower) && length >= MIN_LEN) emit(lower);
  }
}

/** Where the part of `word` that starts at `j` ends (`j` itself where none starts there). */
function partEnd(word: string, j: number): number {
  const n = word.length;
  const c = word.charCodeAt(j);
  let k = j + 1;
  if (isUpper(c)) {
    while (k < n && isUpper(word.charCodeAt(k))) k++;
    if (k === n || !isLower(word.charCodeAt(k))) return k;
    // An acronym's last capital starts the next word (HTTPServer); a lone one starts this word.
    if (k - j >= 2) return k - 1;
    while (k < n && isLower(word.charCodeAt(k))) k++;
    return k;
  }
  if (isLower(c)) {
    while (k < n && isLower(word.charCodeAt(k))) k++;
    return k;
  }
  if (isDigit(c)) {
    while (k < n && isDigit(word.charCodeAt(k))) k++;
    return k;
  }
  return j;
}

/** `[A-Za-z0-9_$]`: the characters of a tokenizer's word, by character code. */
export function isWordChar(c: number): boolean {
  return isLower(c) || isUpper(c) || isDigit(c) || c === 95 /* _ */ || c === 36 /* $ */;
}

function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}

function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** All tokens of `text`, in order. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  forEachToken(text, (t) => out.push(t));
  return out;
}

/** Term frequencies and token count of `text`. */
export function termStats(text: string): { tf: Record<string, number>; length: number } {
  const tf: Record<string, number> = Object.create(null) as Record<string, number>;
  let length = 0;
  forEachToken(text, (t) => {
    tf[t] = (tf[t] ?? 0) + 1;
    length++;
  });
  return { tf, length };
}
