/** Text helpers of every extractor: lines, signatures, doc sentences. */

/** The longest signature kept, in characters. */
export const MAX_SIGNATURE = 240;
/** The longest doc sentence kept, in characters. */
export const MAX_DOC = 200;

/** Maps a character offset to its 1-based line. */
export function lineIndex(source: string): (offset: number) => number {
  const starts = [0];
  for (let i = source.indexOf("\n"); i !== -1; i = source.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** The first sentence of a comment or docstring, markers stripped, whitespace collapsed. */
export function firstSentence(raw: string): string {
  const paragraph: string[] = [];
  for (const line of raw.split("\n")) {
    const text = line
      .replace(/^\s*(\/\/[/!]?|\/\*[*!]?|\*\/|\*|#+|--)\s?/, "")
      .replace(/\s*\*\/\s*$/, "")
      // Banner rules (`/* ***** Simple API ***** */`, `// ======`) frame a comment, they are not its text.
      .replace(/^[*=\-~#_+]{3,}\s*|\s*[*=\-~#_+]{3,}$/g, "")
      .trim();
    if (text === "") {
      if (paragraph.length > 0) break;
      continue;
    }
    paragraph.push(text);
  }
  const joined = paragraph.join(" ");
  const stop = /[.!?](\s|$)/.exec(joined);
  return clip(stop ? joined.slice(0, stop.index + 1) : joined, MAX_DOC);
}

/** `text` with its white space collapsed when it is long or spans lines, cut to `max` characters. */
export function clip(text: string, max: number): string {
  const flat = text.length > max || text.includes("\n") ? text.replace(/\s+/g, " ") : text;
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
