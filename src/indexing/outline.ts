import type { Language, SymbolInfo } from "../core/types.js";
import { ContextSmithError } from "../core/errors.js";
import type { ParsePools } from "../runtime/pools.js";
import { PROTOCOL_VERSION, type OutlineResult, type OutlineTask } from "./protocol.js";

/** Characters of text per outline task: several tasks keep every parse thread busy on a large change. */
const TASK_CHARS = 512 * 1024;

/**
 * The symbols of texts that are not the repository's files as they are (another commit's version
 * of them), parsed on the process's parse threads: the serving thread only waits. A text whose
 * task fails (its thread crashed on it) has null symbols and a warning; the others are kept.
 */
export async function outlineOnPool(pools: ParsePools, threads: number, texts: ReadonlyArray<{ language: Language; text: string }>): Promise<OutlineResult> {
  const symbols: Array<SymbolInfo[] | null> = texts.map(() => null);
  const warnings = new Set<string>();
  if (texts.length === 0) return { symbols, warnings: [] };
  const chunks: number[][] = [[]];
  let chars = 0;
  texts.forEach((t, i) => {
    if (chars > 0 && chars + t.text.length > TASK_CHARS) {
      chunks.push([]);
      chars = 0;
    }
    chunks[chunks.length - 1]!.push(i);
    chars += t.text.length;
  });
  await pools.use(threads, (pool) =>
    Promise.all(
      chunks.map(async (chunk) => {
        const task: OutlineTask = { version: PROTOCOL_VERSION, texts: chunk.map((i) => texts[i]!) };
        try {
          const result = (await pool.run(task, { name: "outline" })) as OutlineResult;
          result.symbols.forEach((s, k) => (symbols[chunk[k]!] = s));
          for (const w of result.warnings) warnings.add(w);
        } catch (error) {
          warnings.add(`${chunk.length} text(s) could not be outlined (${ContextSmithError.from(error).message})`);
        }
      }),
    ),
  );
  return { symbols, warnings: [...warnings] };
}
