/**
 * The code-aware tokenizer shared by indexing and queries.
 *
 * `parseHTTPResponse_v2` yields `parsehttpresponse_v2` (the whole identifier, so exact names
 * still match) and its parts `parse`, `http`, `response`, `v`, `2`... minus the parts too short to
 * mean anything. Lower case throughout.
 */

const WORD = /[A-Za-z0-9_$]+/g;
// Splits camelCase, PascalCase with acronyms (HTTPServer -> HTTP Server) and letter/digit runs.
const PART = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

/** Tokens shorter than this are dropped (single letters carry no signal). */
export const MIN_LEN = 2;
/** Longer words are hashes, base64 or data: dropped, with their parts. */
export const MAX_LEN = 64;

/** Calls `emit` for every token of `text`, in order, duplicates included. */
function forEachToken(text: string, emit: (token: string) => void): void {
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const word = m[0];
    if (word.length > MAX_LEN) continue;
    if (isLowerAlpha(word)) {
      // The common case (plain lower-case words) needs no splitting.
      if (word.length >= MIN_LEN) emit(word);
      continue;
    }
    const lower = word.toLowerCase();
    let parts = 0;
    let single = "";
    PART.lastIndex = 0;
    for (let p = PART.exec(word); p !== null; p = PART.exec(word)) {
      parts++;
      const part = p[0].toLowerCase();
      if (parts === 1) single = part;
      if (part.length >= MIN_LEN) emit(part);
    }
    // The whole identifier as well, when it is more than its one part.
    if ((parts !== 1 || single !== lower) && lower.length >= MIN_LEN) emit(lower);
  }
}

function isLowerAlpha(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return true;
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
