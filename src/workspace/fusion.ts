import { placedOnly, unplaced } from "../query/release-notes.js";
import type { RankedFile, SearchHit } from "../query/types.js";
import type { Provenance, WorkspaceRankedFile, WorkspaceSearchHit } from "./types.js";

/** A result from an expanded repository counts this much less per hop from the primary ones. */
export const HOP_DECAY = 0.85;
/** A file that defines an identifier the task names exactly (the exactName signal found it) counts this much more. */
export const EXACT_NAME_BOOST = 1.25;

/**
 * Merges the repositories' own rankings into one. Each repository ranks with its own signals and
 * fuses them by weighted reciprocal rank (`query/fusion.ts`), so its scores are sums of
 * weight / (k + rank) on the same scale in every repository; the merge keeps that scale, decays a
 * result from an expanded repository by {@link HOP_DECAY} per hop, and boosts a file where an
 * identifier of the task is defined. Ties go to the nearer repository, then the better own rank.
 * Release notes stay placed for the best file's repository alone.
 */
export function fuseRankings(rankings: ReadonlyArray<{ provenance: Provenance; files: readonly RankedFile[] }>): WorkspaceRankedFile[] {
  const fused: WorkspaceRankedFile[] = [];
  for (const { provenance, files } of rankings) {
    const decay = Math.pow(HOP_DECAY, provenance.hops);
    files.forEach((file, i) => {
      const boost = file.signals.exactName ? EXACT_NAME_BOOST : 1;
      fused.push({ ...file, ...provenance, repoRank: i + 1, score: file.score * decay * boost });
    });
  }
  fused.sort((a, b) => b.score - a.score || a.hops - b.hops || a.repoRank - b.repoRank || a.repo.localeCompare(b.repo) || a.path.localeCompare(b.path));
  return withOneRepositorysNotes(fused);
}

/**
 * Each repository's ranking places its own release notes (`releaseNotes`); a fix adds to the notes
 * of the repository it is in, so only the best file's repository's stay. Another's are dropped
 * where only the placement put them, and kept as a plain ranked file where a signal found them.
 */
function withOneRepositorysNotes(files: WorkspaceRankedFile[]): WorkspaceRankedFile[] {
  const repo = files[0]?.repo;
  return files.flatMap((file) => {
    if (file.releaseNotes === undefined || file.repo === repo) return [file];
    return placedOnly(file) ? [] : [unplaced(file)];
  });
}

/** Merges the repositories' symbol searches: scores decayed per hop as in {@link fuseRankings}. */
export function fuseSearches(results: ReadonlyArray<{ provenance: Provenance; hits: readonly SearchHit[] }>, limit: number): WorkspaceSearchHit[] {
  const fused: WorkspaceSearchHit[] = [];
  for (const { provenance, hits } of results) {
    const decay = Math.pow(HOP_DECAY, provenance.hops);
    for (const hit of hits) fused.push({ ...hit, ...provenance, score: hit.score * decay });
  }
  fused.sort((a, b) => b.score - a.score || a.hops - b.hops || a.repo.localeCompare(b.repo) || a.path.localeCompare(b.path) || a.line - b.line);
  return fused.slice(0, limit);
}
