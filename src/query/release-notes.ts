import { releaseNotesHome } from "../core/languages.js";
import type { ReleaseNotesHabit } from "../store/history-index.js";
import type { RankingConfig } from "./ranking-config.js";
import type { RankedFile } from "./types.js";

/**
 * The release notes a fix of `best` most likely adds an entry to: of the notes that at least
 * `minShare` of the repository's newest commits change and whose folder holds `best`, those of the
 * deepest folder (a module's own changelog before the repository's; a sibling module's never), then
 * the most often changed. Never `best` itself (a task about the notes).
 */
export function pickReleaseNotes(best: string, habits: readonly ReleaseNotesHabit[], minShare: number): ReleaseNotesHabit | null {
  let pick: { notes: ReleaseNotesHabit; depth: number } | null = null;
  for (const notes of habits) {
    if (notes.share < minShare || notes.path === best) continue;
    // How deep the folder the notes speak for is, or -1 where it does not hold the best file.
    const home = releaseNotesHome(notes.path);
    const depth = home === "" ? 0 : best.startsWith(`${home}/`) ? home.split("/").length : -1;
    if (depth >= 0 && (pick === null || depth > pick.depth || (depth === pick.depth && notes.share > pick.notes.share))) pick = { notes, depth };
  }
  return pick?.notes ?? null;
}

/** Why the notes are shown or ranked: "release notes: 18% of the newest 300 commits add to them". */
export function releaseNotesReason(notes: ReleaseNotesHabit): string {
  return `release notes: ${Math.round(100 * notes.share)}% of the newest ${notes.window} commits add to them`;
}

/**
 * The ranking with the release notes a fix most likely adds to (see {@link pickReleaseNotes}, from
 * the best file: the notes packs end with) at rank `notesRank` (2 at the earliest) at the latest:
 * moved up there from below, or from outside the ranking, with the score of the file they pass;
 * left where they are when ranked higher. Either way they are marked (`releaseNotes`), so packing
 * shows their head instead of packing them as code. Nothing moves while packs show no notes
 * (`notesValue` 0).
 */
export function withRankedNotes(files: readonly RankedFile[], habits: readonly ReleaseNotesHabit[], config: RankingConfig): RankedFile[] {
  const best = files[0];
  const on = config.notesRank > 0 && config.pack.notesValue > 0;
  const notes = best && on ? pickReleaseNotes(best.path, habits, config.pack.notesShare) : null;
  if (!notes) return [...files];
  const rank = Math.max(2, Math.floor(config.notesRank));
  const at = files.findIndex((f) => f.path === notes.path);
  const placed = { ...(files[at] ?? { path: notes.path, score: 0, signals: {} }), releaseNotes: releaseNotesReason(notes) };
  if (at >= 0 && at < rank) return files.map((f, i) => (i === at ? placed : f));
  // The rest holds the best file at least: the notes are never it.
  const rest = files.filter((_, i) => i !== at);
  const index = Math.min(rank - 1, rest.length);
  return [...rest.slice(0, index), { ...placed, score: (rest[index] ?? rest[index - 1]!).score }, ...rest.slice(index)];
}

/** Whether only the placement ranked `file`: release notes that no signal found. */
export function placedOnly(file: RankedFile): boolean {
  return file.releaseNotes !== undefined && Object.keys(file.signals).length === 0;
}

/** `file` without the placement's mark, as any ranked file. */
export function unplaced<F extends RankedFile>(file: F): F {
  const { releaseNotes: _placed, ...rest } = file;
  return rest as F;
}
