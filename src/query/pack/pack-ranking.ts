import type { SymbolInfo } from "../../core/types.js";
import type { RankingConfig } from "../ranking-config.js";
import type { ContextResult, RankedFile } from "../types.js";
import { coverCandidate, fileCandidates, heaviest, notesCandidate, NOTES_READ_LINES, type TermWeights } from "./candidates.js";
import type { FileText } from "./file-text.js";
import { INITIAL_RATIO, pack } from "./pack.js";
import type { AsyncTokenCounter } from "../../runtime/token-worker.js";
import type { Candidate } from "./types.js";
import { pickReleaseNotes, releaseNotesReason } from "../release-notes.js";
import type { ReleaseNotesHabit } from "../../store/history-index.js";

/** What packing reads about the ranked files. */
export interface PackSource {
  /** The task's terms with their weights (task weight × idf in the repository). */
  termWeights: TermWeights;
  /** A file's text, or null when it cannot be shown. */
  text(path: string): FileText | null;
  symbols(path: string): readonly SymbolInfo[] | undefined;
  /** Lines of a file the task names (traceback frames, `file:line`). */
  focus(path: string): readonly number[];
  /** The release notes the repository's newest commits add to, most often first. */
  releaseNotes?: readonly ReleaseNotesHabit[];
  /** A file's first `lines` lines alone (the head of release notes); `text` serves where absent. */
  head?(path: string, lines: number): FileText | null;
}

/** How many of the ranked files may be packed at `budget`: a larger budget reaches further down. */
export function packDepth(config: RankingConfig, budget: number): number {
  return Math.ceil(config.pack.maxFiles * Math.max(1, budget / 4000));
}

/** Files named beyond the packed ones, at most, whatever the budget: each is read and scanned for the task's heaviest terms. */
const MAX_NAMED = 60;

/** How many of the ranked files a pack at `budget` names at least (see {@link PackConfig.coverFiles}). */
export function coverDepth(config: RankingConfig, budget: number): number {
  const depth = packDepth(config, budget);
  return Math.max(depth, Math.min(depth + MAX_NAMED, Math.ceil(config.pack.coverFiles * Math.max(1, budget / 4000))));
}

/**
 * The entries a pack at `budget` reads from a ranking, best first: code from the first
 * {@link packDepth} files, the best-matching definitions' names from the rest down to
 * {@link coverDepth}; release notes the ranking placed are left to {@link withReleaseNotes}.
 */
export function packEntries<F extends RankedFile>(ranked: readonly F[], budget: number, config: RankingConfig, entry: (file: F) => PackEntry): PackEntry[] {
  const depth = packDepth(config, budget);
  // Release notes the ranking placed take no code file's place (withReleaseNotes shows their head).
  const code = ranked.filter((file) => file.releaseNotes === undefined);
  return code.slice(0, coverDepth(config, budget)).map((file, i) => (i < depth ? entry(file) : { ...entry(file), coverOnly: true }));
}

/** Packs the code of a ranking's best files into `budget` tokens; `extend` may add to the files packed (the other side of their API links). */
export function packRanking(ranked: readonly RankedFile[], budget: number, counter: AsyncTokenCounter, config: RankingConfig, source: PackSource, extend?: (entries: PackEntry[]) => PackEntry[]): Promise<ContextResult> {
  const entries = packEntries(ranked, budget, config, (file) => ({ file, source }));
  return packSources(withReleaseNotes(extend ? extend(entries) : entries, config), budget, counter, config);
}

/**
 * The entries with the head of the release notes a fix here most likely adds an entry to (of the
 * best file's repository: {@link pickReleaseNotes}). Notes ranked among the files are shown by
 * their head instead (a long changelog's sections rarely win a place), unless they are the best
 * file (a task about the notes themselves).
 */
export function withReleaseNotes(entries: readonly PackEntry[], config: RankingConfig): PackEntry[] {
  const notes = releaseNotesEntry(entries, config);
  return notes ? [...entries.filter((e) => e.repo !== notes.repo || e.file.path !== notes.file.path), notes] : [...entries];
}

/** The release notes to show after `entries` (see {@link withReleaseNotes}), or null. */
export function releaseNotesEntry(entries: readonly PackEntry[], config: RankingConfig): PackEntry | null {
  const best = entries[0];
  if (!best || !(config.pack.notesValue > 0)) return null;
  const pick = pickReleaseNotes(best.file.path, best.source.releaseNotes ?? [], config.pack.notesShare);
  if (!pick) return null;
  return { file: { path: pick.path, score: 0, signals: {} }, source: best.source, note: releaseNotesReason(pick), notes: true, ...(best.repo === undefined ? {} : { repo: best.repo }) };
}

/** A ranked file to pack, with where its code is read from (its repository's pack source). */
export interface PackEntry {
  file: RankedFile;
  source: PackSource;
  /** Its repository, in a pack across the repositories of a workspace. */
  repo?: string;
  /** More of why it was chosen, for its header ("upstream 1 hop"). */
  note?: string;
  /** Lines to favour besides those the task names (the handler a linked request reaches). */
  focus?: readonly number[];
  /** Ranked below the files whose code is packed: only its best-matching definitions are named. */
  coverOnly?: boolean;
  /** Placed by an API link beside the file that links to it, not by the fusion: worth what its rank gives. */
  linked?: boolean;
  /** The release notes the repository's fixes usually add to: only their head is shown. */
  notes?: boolean;
}

/** Packs the code of ranked files, best first, each read from its own source, into `budget` tokens. */
export async function packSources(entries: readonly PackEntry[], budget: number, counter: AsyncTokenCounter, config: RankingConfig): Promise<ContextResult> {
  const read = entries.map((entry) => ({ entry, text: entry.notes && entry.source.head ? entry.source.head(entry.file.path, NOTES_READ_LINES) : entry.source.text(entry.file.path) }));
  // The packed files the fusion placed are worth what their scores say against the best of them;
  // a file a link placed, whatever its score, and named files keep what their rank gives.
  const scored = (e: PackEntry): boolean => !e.linked && !e.coverOnly && !e.notes;
  const best = Math.max(0, ...read.filter(({ entry, text }) => text && scored(entry)).map(({ entry }) => entry.file.score));
  const candidates: Candidate[] = [];
  // Each source's heaviest terms, cut once for all the files it names (a workspace packs several sources).
  const coverTerms = new Map<TermWeights, TermWeights>();
  const coverTermsOf = (terms: TermWeights): TermWeights => {
    let cut = coverTerms.get(terms);
    if (!cut) coverTerms.set(terms, (cut = heaviest(terms, config.pack.coverTerms)));
    return cut;
  };
  let rank = 0;
  for (const { entry, text } of read) {
    rank++;
    if (!text) continue;
    const { file: ranked, source, repo, note, focus, coverOnly, notes } = entry;
    const reasons = [why(ranked), note].filter((r) => r !== undefined && r !== "").join("; ");
    const share = best > 0 && scored(entry) ? { scoreShare: Math.max(0, ranked.score) / best } : {};
    // Release notes are no rank of the ranking: their header says only why they are shown.
    const file = { ...text, rank, why: notes ? reasons : `#${rank} (${reasons})`, ...share, ...(repo === undefined ? {} : { repo }) };
    const lines = [...source.focus(ranked.path), ...(focus ?? [])];
    if (notes) {
      const head = notesCandidate(file, config.pack);
      if (head) candidates.push(head);
    } else if (coverOnly) {
      const cover = coverCandidate(file, source.symbols(ranked.path), coverTermsOf(source.termWeights), config.pack, lines);
      if (cover) candidates.push(cover);
    } else {
      candidates.push(...fileCandidates(file, source.symbols(ranked.path), source.termWeights, config.pack, lines, budget / INITIAL_RATIO));
    }
  }
  return { ...(await pack(candidates, budget, counter, config.pack)), budget };
}

/** "lexical #1, references #2": the signals that found a file, best rank first. */
function why(entry: RankedFile): string {
  return Object.entries(entry.signals)
    .sort((a, b) => a[1].rank - b[1].rank)
    .map(([name, s]) => `${name} #${s.rank}`)
    .join(", ");
}
