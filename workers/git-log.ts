/** Git-log worker: reads new commits and writes the history tables in its own transaction. */
import { indexGitHistory } from "../src/indexing/git/history.js";
import type { GitResult, GitTask } from "../src/indexing/protocol.js";
import { IndexStore } from "../src/store/store.js";
import { ContextSmithError } from "../src/core/errors.js";

export default async function gitLog(task: GitTask): Promise<GitResult> {
  try {
    const store = IndexStore.attach(task.indexDir);
    try {
      return await indexGitHistory(store, task);
    } finally {
      await store.close();
    }
  } catch (error) {
    throw ContextSmithError.from(error, "GIT_FAILED").toJSON();
  }
}
