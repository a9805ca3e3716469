import { isReleaseNotesPath } from "../../core/languages.js";
import type { SignalResult } from "../types.js";
import type { SignalContext } from "./context.js";
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
 * that share and the file's rank. A project that writes its notes at release time (or keeps
 * none) gets nothing.
 */
export function changelogSignal(ctx: SignalContext): SignalResult {
  const hits = new HitCollector();
  ctx.seeds.forEach((seed, rank) => {
    const history = ctx.store.history.of(seed);
    if (!history || history.churn === 0) return;
    for (const [path, shared] of Object.entries(history.cochange)) {
      const share = shared / history.churn;
      if (share >= MIN_SHARE && isReleaseNotesPath(path) && ctx.paths.has(path)) {
        hits.add(path, share / (rank + 1), `changed with ${seed} in ${Math.round(share * 100)}% of its commits`);
      }
    }
  });
  return hits.result("changelog", ctx.config.signalDepth);
}
