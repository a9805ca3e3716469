/**
 * Integrity walk, run as a child process (`src/store/integrity.ts`): reads every page of an index's
 * data file. Exits 0 when it could; a damaged page ends it with an error, or with a signal.
 */
import { walkEveryPage } from "../src/store/integrity.js";

try {
  walkEveryPage(process.argv[2]!);
  process.exit(0);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
