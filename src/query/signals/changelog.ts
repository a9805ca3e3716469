import { isReleaseNotesPath } from "../../core/languages.js";
import type { SignalResult } from "../types.js";
import type { SignalContext } from "./context.js";
import { cochangeOfSeeds } from "./cochange.js";
import { HitCollector } from "./result.js";

/**
 * A changelog counts for a file when at least this share of the file's commits changed it too:
 * the project's habit of writing release notes with its fixes, not a one-off.
 */
const MIN_SHARE = 0.1;

/**
 * Release-notes signal (a neighbour signal): the changelog, `NEWS` or `release-notes/` file that
 * the project updates with its changes, found from git history — the release notes that changed
 * in at least a tenth of the commits touching one of the first fusion's best files, weighted by
 * that share and the file's rank. A project that keeps none gets nothing; one that writes its notes
 * at release time, with the version header, can still cross a tenth (zstd's `NEWS`, measured in
 * bench/results-tune/multilang.md), which is one reason the signal is off.
 */
export function changelogSignal(ctx: SignalContext): SignalResult {
  const hits = new HitCollector();
  for (const { seed, rank, path, share } of cochangeOfSeeds(ctx)) {
    if (share >= MIN_SHARE && isReleaseNotesPath(path)) hits.add(path, share / (rank + 1), `changed with ${seed} in ${Math.round(share * 100)}% of its commits`);
  }
  return hits.result("changelog", ctx.config.signalDepth);
}
