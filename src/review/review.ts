import { isOutlineLanguage, isTestPath, languageOf } from "../core/languages.js";
import { ContextSmithError } from "../core/errors.js";
import { PLACE_KINDS, type Language, type RunOptions, type SymbolInfo } from "../core/types.js";
import type { Engine, PinnedFile } from "../engine.js";
import { apiCallersOf, impactSites } from "../graph/api-hops.js";
import type { ApiMap } from "../graph/api-links.js";
import type { ImpactNode } from "../graph/types.js";
import { changedFiles, grepWords, isWorkTreeAt, readBlobs, resolveRange, type Blob, type DiffEntry, type WordHit } from "./git.js";
import { diffSymbols, type FileSide, type SymbolDelta } from "./symbol-diff.js";
import type { ReviewFile, ReviewNote, ReviewReport, ReviewSymbol, ReviewTest, SymbolChange } from "./types.js";

/** Options of {@link review}. */
export interface ReviewOptions {
  /** The base revision (default: the default branch; the review compares from its merge base with the head). */
  base?: string;
  /** The head revision (default: the work tree). */
  head?: string;
  /** Tokens of the context for the change (default 4,000). */
  budget?: number;
  /** Levels of callers counted as a symbol's impact (default 3). */
  depth?: number;
  /** Bring the index of the work tree up to date first (default true). */
  refresh?: boolean;
  onProgress?: RunOptions["onProgress"];
  waitTimeoutMs?: number;
  signal?: AbortSignal;
  /** The workspace the repository belongs to: requests from all its repositories, and the repositories that depend on this one. */
  across?: ReviewAcross;
}

/** What a review reads beyond its repository: the workspace around it. */
export interface ReviewAcross {
  /** This repository's name in the workspace. */
  repo: string;
  /** The API contract map of the whole workspace. */
  apiMap(): Promise<ApiMap>;
  /** The repositories that depend on this one (directly or not), with their roots. */
  dependents: ReadonlyArray<{ repo: string; root: string }>;
}

/** Changed definitions outside tests whose callers are traced, at most: a change of thousands is summarised, not traced one by one. */
const MAX_TRACED = 300;
/** Lines of the head naming a removed symbol that a report shows. */
const MAX_REFERENCES = 10;
/** Changed declarations looked for in the dependent repositories, at most. */
const MAX_DOWNSTREAM = 50;
/** Bytes of each version read from git to compare definitions: the files past it are listed, not compared. */
const MAX_COMPARED_BYTES = 128 * 1024 * 1024;

/**
 * A change between two versions of a repository (base and head, see {@link ReviewOptions}) mapped
 * onto the index of its work tree: the definitions added, removed or changed (by git's diff and
 * both versions parsed), their callers and transitive impact with tests apart (and the requests
 * that reach them across the API contract), the tests that exercise them, the notes pinned to
 * them, and a context for the change within the budget.
 */
export async function review(engine: Engine, options: ReviewOptions = {}): Promise<ReviewReport> {
  const budget = options.budget ?? 4000;
  if (!Number.isInteger(budget) || budget < 1) throw new ContextSmithError("INVALID_ARGUMENT", `The budget must be a positive whole number of tokens, not ${budget}.`);
  const depth = options.depth ?? 3;
  const root = engine.config.root;
  const signal = options.signal;
  const { range, notices } = await resolveRange(root, { base: options.base, head: options.head }, signal);
  const workTree = range.head.ref === null;
  const diff = await changedFiles(root, range.from, workTree ? null : range.head.commit, signal);
  const query = { refresh: false as const, signal };

  // The work tree's index, brought up to date once: the head's symbols (for the work tree), the callers, the pack.
  const headPaths = diff.filter((d) => d.status !== "deleted").map((d) => d.path);
  const indexed = await engine.files(workTree ? headPaths : [], { refresh: options.refresh ?? true, onProgress: options.onProgress, waitTimeoutMs: options.waitTimeoutMs, signal });
  // Whether the index answers for the head: otherwise callers and definitions elsewhere are the work tree's.
  const indexIsHead = workTree || (await isWorkTreeAt(root, range.head.commit, signal));
  if (!indexIsHead) notices.push(`callers, tests and the context come from the index of the work tree, which is not ${range.head.ref}: check it out (with no changes) for an exact answer.`);
  const limits = { maxBytes: engine.config.maxFileBytes, totalBytes: MAX_COMPARED_BYTES };
  const baseBlobs = await readBlobs(root, range.from, diff.filter((d) => d.status !== "added").map((d) => d.previousPath ?? d.path), limits, signal);
  const headBlobs = workTree ? new Map<string, Blob>() : await readBlobs(root, range.head.commit, headPaths, limits, signal);
  const { sides, warnings } = await fileSides(engine, diff, indexed, baseBlobs, headBlobs, workTree);
  notices.push(...warnings);

  const files: ReviewFile[] = [];
  const deltas: Array<{ path: string; delta: SymbolDelta }> = [];
  for (const entry of diff) {
    const side = sides.get(entry.path)!;
    const file: ReviewFile = {
      path: entry.path,
      ...(entry.previousPath ? { previousPath: entry.previousPath } : {}),
      status: entry.status,
      additions: entry.additions ?? (entry.status === "added" && side.head ? lineCount(side.head.text) : null),
      deletions: entry.deletions ?? (entry.status === "added" && side.head ? 0 : null),
      test: isTestPath(entry.path),
      symbols: 0,
      outside: false,
      ...(side.skipped ? { skipped: side.skipped } : {}),
    };
    if (!side.skipped) {
      const found = diffSymbols(side.base, side.head);
      file.outside = found.outside;
      for (const delta of found.symbols) {
        if (PLACE_KINDS.has((delta.after ?? delta.before)!.kind)) continue;
        deltas.push({ path: entry.path, delta });
        file.symbols++;
      }
    }
    files.push(file);
  }

  const symbols = deltas.map(({ path, delta }) => ({ symbol: reviewSymbol(path, delta), delta }));
  // A test's own callers are its runner: only definitions outside tests are traced.
  const traced = symbols.filter(({ symbol }) => !symbol.test);
  if (traced.length > MAX_TRACED) notices.push(`${traced.length} definitions outside tests changed: the first ${MAX_TRACED} are traced.`);
  const testsByPath = new Map<string, ReviewTest>();
  const reach = (path: string, how: ReviewTest["how"], name: string): void => {
    let test = testsByPath.get(path);
    if (!test) testsByPath.set(path, (test = { path, how, reaches: [] }));
    else if (how === "calls") test.how = "calls";
    if (!test.reaches.includes(name)) test.reaches.push(name);
  };
  let workspaceApi: Promise<ApiMap> | undefined;
  const gone: ReviewSymbol[] = [];
  for (const { symbol, delta } of traced.slice(0, MAX_TRACED)) {
    if (!delta.after) {
      // Gone, and (where the index is the head's) defined nowhere else: what still names it is what breaks.
      if (!indexIsHead || (await engine.symbol(delta.before!.name, { ...query, suggest: false })).matches.length === 0) gone.push(symbol);
      continue;
    }
    // Across a workspace, the requests of all its repositories (this one's own API map otherwise).
    const impact = await engine.impact(`${symbol.path}:${delta.after.qualifiedName.replaceAll("::", ".")}`, { ...query, depth, api: !options.across });
    // Only the definition itself: a file the index lacks (a head other than the work tree) must not
    // borrow the callers of a namesake elsewhere.
    if (impact.targets.length === 0 || impact.targets.some((t) => t.path !== symbol.path)) continue;
    symbol.callers = impact.tree.map((n) => ({ symbol: n.symbol?.qualifiedName ?? null, path: n.path, line: n.lines[0]!, test: n.isTest }));
    symbol.impact = { symbols: impact.counts.symbols, production: impact.files, tests: impact.tests, truncated: impact.truncated };
    if (options.across) {
      workspaceApi ??= options.across.apiMap();
      const repo = options.across.repo;
      symbol.api = apiCallersOf(await workspaceApi, impactSites(impact).map((site) => ({ repo, ...site })));
    } else symbol.api = impact.api ?? [];
    for (const node of testNodes(impact.tree)) reach(node.path, "calls", symbol.qualifiedName);
  }
  await withReferences(gone, (names) => grepWords(root, workTree ? null : range.head.commit, names, MAX_REFERENCES, isCode, signal), (s, found) => (s.references = found), notices);
  if (options.across) await namedDownstream(traced.map((t) => t.symbol), options.across, notices, signal);

  const byFile = new Map<string, ReviewSymbol[]>();
  for (const { symbol } of symbols) {
    const list = byFile.get(symbol.path);
    if (list) list.push(symbol);
    else byFile.set(symbol.path, [symbol]);
  }
  // Tests that import a changed file exercise what it changed, whether or not a call resolved.
  for (const file of files) {
    if (file.test || file.status === "deleted" || !byFile.has(file.path)) continue;
    const related = await engine.related(file.path, query).catch(() => null);
    for (const importer of related?.importedBy ?? []) if (isTestPath(importer)) for (const s of byFile.get(file.path)!) reach(importer, "imports", s.qualifiedName);
  }
  const ordered = symbols.map((s) => s.symbol).sort(byWeight);
  const tests = [...testsByPath.values()].sort((a, b) => (a.how === b.how ? a.path.localeCompare(b.path) : a.how === "calls" ? -1 : 1));
  const notes = await touchedNotes(engine, files, ordered, query);
  const context = files.length === 0 ? null : await engine.context(packTask(ordered, files), { ...query, budget, pinned: pinnedFiles(files, ordered, byFile, tests) });
  if (context?.notices) notices.push(...context.notices);
  for (const f of files) if (f.skipped && f.skipped !== NO_LANGUAGE) notices.push(`${f.path}: definitions not compared (${f.skipped})`);

  const changedPaths = new Set(files.map((f) => f.path));
  const impacted = new Set(ordered.flatMap((s) => s.impact.production).filter((p) => !changedPaths.has(p)));
  const impactedTests = new Set(ordered.flatMap((s) => s.impact.tests).filter((p) => !changedPaths.has(p)));
  const count = (change: SymbolChange): number => ordered.filter((s) => s.change === change).length;
  return {
    root,
    range,
    summary: {
      files: files.length,
      additions: files.reduce((n, f) => n + (f.additions ?? 0), 0),
      deletions: files.reduce((n, f) => n + (f.deletions ?? 0), 0),
      symbols: { added: count("added"), removed: count("removed"), signature: count("signature"), body: count("body") },
      impactedFiles: impacted.size,
      impactedTests: impactedTests.size,
      tests: tests.length,
      notes: notes.length,
      dangling: ordered.filter((s) => s.references).length,
      downstream: ordered.filter((s) => s.downstream).length,
    },
    files,
    symbols: ordered,
    tests,
    notes,
    context,
    ...(notices.length > 0 ? { notices } : {}),
  };
}

/** Whether a path holds code (where a name still used is a use, not a mention in the docs). */
function isCode(path: string): boolean {
  const language = languageOf(path);
  return language !== null && !isOutlineLanguage(language);
}

/** Why a file's definitions were not compared when it is in no parsed language (not worth a notice). */
const NO_LANGUAGE = "no parsed language";

const CHANGE_ORDER: Record<SymbolChange, number> = { removed: 0, signature: 1, body: 2, added: 3 };

/** The widest impact first; then code before tests, and what can break callers (removed, re-declared) first; else in file order. */
function byWeight(a: ReviewSymbol, b: ReviewSymbol): number {
  const weight = (s: ReviewSymbol): number => s.impact.production.length + s.impact.tests.length + (s.references?.total ?? 0) + s.api.length + (s.downstream?.length ?? 0);
  return weight(b) - weight(a) || Number(a.test) - Number(b.test) || CHANGE_ORDER[a.change] - CHANGE_ORDER[b.change];
}

/** Looks up the names of `symbols` in one search and hands each its lines; a failed search is a notice, not a failed review. */
async function withReferences(
  symbols: readonly ReviewSymbol[],
  search: (names: string[]) => Promise<Map<string, { hits: WordHit[]; total: number }>>,
  set: (symbol: ReviewSymbol, found: { total: number; lines: WordHit[] }) => void,
  notices: string[],
  where = "the head",
): Promise<void> {
  if (symbols.length === 0) return;
  let found: Map<string, { hits: WordHit[]; total: number }>;
  try {
    found = await search(symbols.map((s) => s.name));
  } catch (error) {
    const err = ContextSmithError.from(error, "GIT_FAILED");
    if (err.code === "ABORTED") throw err;
    notices.push(`${where} was not searched for the names of removed or re-declared definitions (${err.message})`);
    return;
  }
  for (const s of symbols) {
    const hits = found.get(s.name);
    if (hits && hits.total > 0) set(s, { total: hits.total, lines: hits.hits });
  }
}

/**
 * The dependent repositories that still name a removed definition or one whose declaration
 * changed (a whole-word text search of their work trees: calls across repositories resolve by no
 * import the index follows). One search per repository.
 */
async function namedDownstream(symbols: readonly ReviewSymbol[], across: ReviewAcross, notices: string[], signal: AbortSignal | undefined): Promise<void> {
  const breaking = symbols.filter((s) => s.change === "removed" || s.change === "signature").slice(0, MAX_DOWNSTREAM);
  for (const { repo, root } of across.dependents) {
    const add = (s: ReviewSymbol, found: { total: number; lines: WordHit[] }): void => void (s.downstream ??= []).push({ repo, ...found });
    await withReferences(breaking, (names) => grepWords(root, null, names, MAX_REFERENCES, isCode, signal), add, notices, repo);
  }
}

interface Sides {
  base: FileSide | null;
  head: FileSide | null;
  skipped?: string;
}

/** Both versions of each changed file: texts from git or the index, symbols from the index or parsed here. */
async function fileSides(
  engine: Engine,
  diff: readonly DiffEntry[],
  indexed: ReadonlyMap<string, { text: string; symbols: SymbolInfo[]; language: Language | null } | null>,
  baseBlobs: ReadonlyMap<string, Blob>,
  headBlobs: ReadonlyMap<string, Blob>,
  workTree: boolean,
): Promise<{ sides: Map<string, Sides>; warnings: string[] }> {
  const sides = new Map<string, Sides>();
  const toParse: Array<{ path: string; text: string; language?: Language | null; side: Sides; into: "base" | "head" }> = [];
  const why = (blob: Blob | undefined): string => (blob && "skipped" in blob ? blob.skipped : "missing");
  for (const entry of diff) {
    const side: Sides = { base: null, head: null };
    sides.set(entry.path, side);
    let language: Language | null | undefined;
    if (entry.status !== "deleted") {
      if (workTree) {
        const file = indexed.get(entry.path);
        if (!file) side.skipped = languageOf(entry.path) ? "not in the index: ignored, binary, too large or changed while indexing" : NO_LANGUAGE;
        else if (file.language === null) side.skipped = NO_LANGUAGE;
        else {
          side.head = { text: file.text, symbols: file.symbols };
          language = file.language;
        }
      } else {
        const blob = headBlobs.get(entry.path);
        if (blob && "text" in blob) toParse.push({ path: entry.path, text: blob.text, side, into: "head" });
        else side.skipped = why(blob);
      }
    }
    if (entry.status !== "added" && !side.skipped) {
      const path = entry.previousPath ?? entry.path;
      const blob = baseBlobs.get(path);
      if (blob && "text" in blob) toParse.push({ path, text: blob.text, language, side, into: "base" });
      else side.skipped = `in the base: ${why(blob)}`;
    }
  }
  const parsed = await engine.outline(toParse);
  toParse.forEach((t, i) => {
    const symbols = parsed.symbols[i];
    if (symbols) t.side[t.into] = { text: t.text, symbols };
    else if (!t.side.skipped) t.side.skipped = (t.language ?? languageOf(t.path)) ? "it could not be parsed" : NO_LANGUAGE;
  });
  return { sides, warnings: parsed.warnings };
}

function reviewSymbol(path: string, delta: SymbolDelta): ReviewSymbol {
  const s = (delta.after ?? delta.before)!;
  return {
    change: delta.change,
    path,
    name: s.name,
    qualifiedName: s.qualifiedName,
    kind: s.kind,
    signature: s.signature,
    ...(delta.change === "signature" ? { previousSignature: delta.before!.signature } : {}),
    startLine: s.startLine,
    endLine: s.endLine,
    test: isTestPath(path),
    callers: [],
    impact: { symbols: 0, production: [], tests: [], truncated: false },
    api: [],
  };
}

function* testNodes(nodes: readonly ImpactNode[]): Generator<ImpactNode> {
  for (const node of nodes) {
    if (node.isTest) yield node;
    yield* testNodes(node.children);
  }
}

/** Notes on the touched files: those on a whole file, on a changed definition, or whose code changed or is gone. */
async function touchedNotes(engine: Engine, files: readonly ReviewFile[], symbols: readonly ReviewSymbol[], query: { refresh: false; signal?: AbortSignal }): Promise<ReviewNote[]> {
  const paths = new Set(files.flatMap((f) => [f.path, ...(f.previousPath ? [f.previousPath] : [])]));
  const changed = new Set(symbols.map((s) => `${s.path}\0${s.qualifiedName}`));
  const notes = await engine.notes({}, query);
  return notes.filter((n) => {
    if (!paths.has(n.target.path)) return false;
    if (n.target.kind === "file" || n.status !== "current") return true;
    return changed.has(`${n.location?.path ?? n.target.path}\0${n.target.qualifiedName}`);
  });
}

/** The task a review packs for: the changed definitions' names, or the changed files' paths. */
function packTask(symbols: readonly ReviewSymbol[], files: readonly ReviewFile[]): string {
  const names = [...new Set(symbols.map((s) => s.qualifiedName))];
  return names.length > 0 ? names.join(" ") : files.map((f) => f.path).join(" ");
}

/** The files a review packs first: the changed sources, then their direct callers, then the tests reaching them. */
function pinnedFiles(files: readonly ReviewFile[], symbols: readonly ReviewSymbol[], byFile: ReadonlyMap<string, readonly ReviewSymbol[]>, tests: readonly ReviewTest[]): PinnedFile[] {
  const pinned = new Map<string, PinnedFile & { focus: number[] }>();
  const pin = (path: string, line: number | null, note: string): void => {
    const entry = pinned.get(path) ?? { path, focus: [], note };
    if (line !== null) entry.focus.push(line);
    pinned.set(path, entry);
  };
  const changedHere = (path: string): string => {
    const n = byFile.get(path)?.length ?? 0;
    return n === 0 ? "changed" : `changed: ${n} definition${n === 1 ? "" : "s"}`;
  };
  // Symbols are widest impact first: their files come first.
  for (const s of symbols) if (s.change !== "removed" && !s.test) pin(s.path, s.startLine, changedHere(s.path));
  for (const f of files) if (f.status !== "deleted" && !f.test) pin(f.path, null, changedHere(f.path));
  for (const s of symbols) for (const c of s.callers) if (!c.test) pin(c.path, c.line, `calls ${s.name}`);
  for (const t of tests) pin(t.path, null, `test reaching ${t.reaches[0]}`);
  for (const f of files) if (f.status !== "deleted" && f.test) pin(f.path, null, "changed test");
  return [...pinned.values()];
}

function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}
