/**
 * What a task quotes (output, an error message, a `repr`) that the code prints: the line of a file
 * that holds it is where the symptom is made, and the packer counts it like a traceback frame's
 * line. A phrase is three words in a row, as the task quotes them (fenced blocks, backticks,
 * quotes) and as a line of code holding a string writes them.
 */

/** Words: a letter, then letters, digits and underscores (lower case). */
const WORD_RE = /[a-z][a-z0-9_]*/g;
/** Quoted within a line: backticks, or a double- or single-quoted string of 8 characters or more. */
const QUOTED_RE = /`([^`]{1,500})`|"([^"]{8,500})"|'([^']{8,500})'/g;
const FENCE_RE = /^\s*(?:```|~~~)/;
/** A line that may hold a string. */
const STRING_LINE_RE = /["'`]/;
/** Words that make no phrase: a phrase needs a word of four letters or more, and at most one of these. */
const STOP = new Set("the a an of to in on for and or is are was be with by as at it this that from not no".split(" "));
/** More lines of one file than this holding the task's phrases: the phrases are the file's idiom, not a place. */
const MAX_LINES = 3;

/** The phrases of what the task quotes. */
export function quotedPhrases(task: string): Set<string> {
  const phrases = new Set<string>();
  let fenced = false;
  for (const line of task.split("\n")) {
    if (FENCE_RE.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) addPhrases(line, phrases);
    else for (const m of line.matchAll(QUOTED_RE)) addPhrases(m[1] ?? m[2] ?? m[3]!, phrases);
  }
  return phrases;
}

/** The lines (1-based) of a file that write one of `phrases`; none where more than a few do. */
export function phraseLines(lines: readonly string[], phrases: ReadonlySet<string>): number[] {
  if (phrases.size === 0) return [];
  const found: number[] = [];
  const own = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!STRING_LINE_RE.test(line)) continue;
    own.clear();
    addPhrases(line, own);
    for (const phrase of own) {
      if (!phrases.has(phrase)) continue;
      if (found.push(i + 1) > MAX_LINES) return [];
      break;
    }
  }
  return found;
}

function addPhrases(text: string, into: Set<string>): void {
  const words = text.toLowerCase().match(WORD_RE);
  if (!words) return;
  for (let i = 0; i + 2 < words.length; i++) {
    const a = words[i]!, b = words[i + 1]!, c = words[i + 2]!;
    const stops = +STOP.has(a) + +STOP.has(b) + +STOP.has(c);
    const long = (w: string): boolean => w.length >= 4 && !STOP.has(w);
    if (stops <= 1 && (long(a) || long(b) || long(c))) into.add(`${a} ${b} ${c}`);
  }
}
