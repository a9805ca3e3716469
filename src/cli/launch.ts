#!/usr/bin/env node
import { fileURLToPath } from "node:url";
import { userCacheDir } from "../core/cache-dir.js";
import { envFlag } from "../core/env.js";
import { runBundle } from "./code-cache.js";

/**
 * `ctxsmith`, the installed command (`dist/ctxsmith.js`): runs the CLI's bundle beside it
 * (`dist/ctxsmith-cli.cjs`) from V8's code cache in `<cache>/v8/`, one per command (see
 * `cli/code-cache.ts`); `CTXSMITH_NO_CODE_CACHE=1` compiles it afresh every time and keeps none.
 */
function cacheDir(): string | null {
  return envFlag(process.env.CTXSMITH_NO_CODE_CACHE) ? null : userCacheDir();
}

/** The command (`context`, `index`, …): each keeps its own compiled code. */
const command = /^[a-z][a-z-]*$/.test(process.argv[2] ?? "") ? process.argv[2] : undefined;

runBundle(fileURLToPath(new URL("./ctxsmith-cli.cjs", import.meta.url)), cacheDir(), command);
