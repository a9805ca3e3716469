import { Packr } from "msgpackr";
import { ContextSmithError } from "../../core/errors.js";
import { RepoFiles } from "../../core/repo-file.js";
import { termStats } from "../../core/tokenize.js";
import { isOutlineLanguage } from "../../core/languages.js";
import type { ApiRecord, CodeLanguage, Language, ParsedFile } from "../../core/types.js";
import { lexicalInput } from "../../store/lexical.js";
import type { FileUpdate } from "../../store/types.js";
import type { PlannedRead } from "../plan.js";
import { PROTOCOL_VERSION, type OutlineResult, type OutlineTask, type ParseResult, type ParseTask } from "../protocol.js";
import { extractFile } from "./extract.js";
import type { GrammarSource } from "./grammars.js";
import { outlineFile } from "./outline/index.js";

const decoder = new TextDecoder("utf-8", { fatal: true });
// Self-contained records (no shared structures), so LMDB's own decoder reads them back.
const packr = new Packr({ useRecords: true });
const encode = (value: unknown): Uint8Array => Uint8Array.from(packr.pack(value)); // a copy: pack() reuses its buffer

/**
 * The parse stage: read, hash, classify, parse and count terms for one batch of files.
 * Runs in a worker thread (workers/parse.ts) or in-process in tests.
 */
export function parseBatch(grammars: GrammarSource, task: ParseTask): ParseResult {
  checkVersion(task.version);
  const warnings: string[] = [];
  const files = new RepoFiles(task.root);
  const updates = task.files.map((file) => parseOne(grammars, files, task, file, warnings));
  return { updates, warnings: [...new Set(warnings)] };
}

/** The outline stage: the symbols of texts read elsewhere (another commit's files); runs in a parse worker. */
export function outlineTexts(grammars: GrammarSource, task: OutlineTask): OutlineResult {
  checkVersion(task.version);
  const warnings: string[] = [];
  const symbols = task.texts.map(({ language, text }) => {
    try {
      return parseText(grammars, language, text, warnings)?.symbols ?? null;
    } catch (error) {
      warnings.push(`a ${language} text could not be parsed (${(error as Error).message})`);
      return null;
    }
  });
  return { symbols, warnings: [...new Set(warnings)] };
}

function checkVersion(version: number): void {
  if (version !== PROTOCOL_VERSION) {
    throw new ContextSmithError("WORKER_FAILED", `parse worker speaks protocol ${PROTOCOL_VERSION}, task is ${version}: rebuild the project`);
  }
}

function parseOne(grammars: GrammarSource, files: RepoFiles, task: ParseTask, file: PlannedRead, warnings: string[]): FileUpdate {
  const { limits } = task;
  // The walk saw a regular file; by now it may be a link, a FIFO or much larger.
  const read = files.read(file.path, { maxBytes: limits.maxFileBytes });
  if (!read.ok) {
    const reason = read.reason === "too-large" ? "too-large" : read.reason === "link" ? "symlink" : "unreadable";
    return { kind: "skip", path: file.path, size: file.size, mtimeMs: file.mtimeMs, hash: "", language: file.language, reason };
  }
  const { bytes, hash } = read;
  // The record describes the bytes read (a file that changed since the walk is read again next time).
  const base = { path: file.path, size: bytes.length, mtimeMs: read.mtimeMs, language: file.language };
  if (hash === file.expectHash) return { kind: "touch", ...base };
  const skip = (reason: Extract<FileUpdate, { kind: "skip" }>["reason"]): FileUpdate => ({ kind: "skip", ...base, hash, reason });
  // Anywhere, not only in git's first 8,000 bytes: tree-sitter stops reading at a NUL, so the
  // definitions after one would be dropped without a word.
  if (bytes.includes(0)) return skip("binary");
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return skip("undecodable");
  }
  const shape = lineShape(text);
  if (shape.longest > limits.maxLineChars || (text.length > 4096 && text.length / shape.lines > limits.maxMeanLineChars) || isNumericData(text)) {
    return skip("generated");
  }
  let parsed: ParsedFile | null = null;
  if (file.language) {
    try {
      parsed = parseText(grammars, file.language, text, warnings);
    } catch (error) {
      // tree-sitter recovers from syntax errors itself; this is a crash inside the parser.
      warnings.push(`${file.path}: parser failed (${(error as Error).message}); indexed as text`);
    }
  }
  const terms = termStats(text);
  return {
    kind: "index",
    ...base,
    hash,
    lines: shape.lines,
    parsed: parsed ? encode(withoutApi(parsed)) : null,
    symbols: parsed ? encode(parsed.symbols) : null,
    api: parsed?.api ? encode({ facts: parsed.api, imports: parsed.imports } satisfies ApiRecord) : null,
    terms: encode(terms),
    counts: {
      symbols: parsed?.symbols.length ?? 0,
      calls: parsed?.calls.length ?? 0,
      imports: parsed?.imports.length ?? 0,
      tokens: terms.length,
    },
    lexical: task.lexical ? lexicalInput(parsed, terms) : null,
  };
}

/**
 * A file's definitions, calls and imports: an outline scanner's for documents and config (an
 * HTML page's inline scripts parsed with the JavaScript grammar), a grammar's for code. Null, with
 * the language's warning, when its grammar cannot load.
 */
export function parseText(grammars: GrammarSource, language: Language, text: string, warnings: string[]): ParsedFile | null {
  const code = (language: CodeLanguage, source: string): ParsedFile | null => {
    const grammar = grammars.get(language);
    if (grammar) return extractFile(grammar, language, source);
    warnings.push(grammarWarning(language, grammars.failure(language) ?? "unknown failure"));
    return null;
  };
  if (!isOutlineLanguage(language)) return code(language, text);
  return outlineFile(language, text, (script) => {
    try {
      return code("javascript", script);
    } catch {
      // A script the parser gives up on (past its budget) leaves the page's outline as it is.
      return null;
    }
  });
}

/**
 * The one warning of a language whose grammar cannot load (the same text from every batch and
 * worker, so the run reports it once).
 */
export function grammarWarning(language: Language, why: string): string {
  return `the ${language} grammar cannot load on this machine (${why}): ${language} files are indexed as text, without symbols or calls. Reinstall (npm rebuild), then index into a fresh index folder.`;
}

function withoutApi(parsed: ParsedFile): ParsedFile {
  if (!parsed.api) return parsed;
  const { api: _api, ...rest } = parsed;
  return rest;
}

/**
 * Whether a text is an array of numbers (an image or a table compiled in, `0x00, 0xff, …`): nothing
 * an agent reads, and tree-sitter's C++ error recovery took 13 s on 196 KB of it.
 */
function isNumericData(text: string): boolean {
  if (text.length < 16 * 1024) return false;
  const sample = text.length > 256 * 1024 ? text.slice(0, 128 * 1024) + text.slice(-128 * 1024) : text;
  // Of what is not white space (a deeply indented file is mostly spaces), the share that is digits,
  // a-f/A-F, x and commas.
  let data = 0;
  let visible = 0;
  // Code fails within its first lines: once the other characters reach 5% of the whole sample,
  // they are over 5% of what is visible too, and the answer is known.
  const enough = 0.05 * sample.length;
  for (let i = 0; i < sample.length && visible - data < enough; i++) {
    const c = sample.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13) continue;
    visible++;
    if ((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70) || c === 120 || c === 88 || c === 44) data++;
  }
  return visible >= 8 * 1024 && data / visible > 0.95;
}

/** Line count (a final newline does not start a line) and the longest line, in characters. */
function lineShape(text: string): { lines: number; longest: number } {
  let lines = 0;
  let longest = 0;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    longest = Math.max(longest, i - start);
    start = i + 1;
    lines++;
  }
  if (start < text.length) {
    longest = Math.max(longest, text.length - start);
    lines++;
  }
  return { lines: Math.max(lines, 1), longest };
}
