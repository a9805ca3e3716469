import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { envText } from "./env.js";

/**
 * The folder of what ContextSmith caches for a user (models, compiled code):
 * `CTXSMITH_CACHE_DIR`, else `$XDG_CACHE_HOME/contextsmith`, else `~/.cache/contextsmith`.
 */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(envText(env.CTXSMITH_CACHE_DIR) ?? join(envText(env.XDG_CACHE_HOME) ?? join(homedir(), ".cache"), "contextsmith"));
}

/** {@link cacheRoot}, or null where there is no home folder to find it in. */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  try {
    return cacheRoot(env);
  } catch {
    return null;
  }
}
