import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileText } from "../query/pack/file-text.js";
import { render, type LineOwner, type ShownFile } from "../query/pack/render.js";
import type { AsyncTokenCounter } from "../runtime/token-worker.js";
import type { ContextResult } from "../query/types.js";

/**
 * The baseline's packing: whole files pasted in rank order until the next one does not fit.
 * Rendered like `context` (same headers and numbered lines), so token counts compare.
 */
export async function packWholeFiles(root: string, ranking: readonly string[], budget: number, counter: AsyncTokenCounter): Promise<ContextResult> {
  const shown: ShownFile[] = [];
  let best: ContextResult = { text: "", tokens: 0, budget, files: [], spans: [] };
  for (const [i, path] of ranking.entries()) {
    let text: string;
    try {
      text = readFileSync(join(root, path), "utf8");
    } catch {
      continue;
    }
    const file = fileText(path, null, text);
    if (file.lines.length === 0) continue;
    const lines = new Map<number, LineOwner>();
    for (let n = 1; n <= file.lines.length; n++) lines.set(n, { kind: "file", symbol: null });
    shown.push({ file: { ...file, rank: i + 1, why: `#${i + 1} (bm25)` }, lines });
    const rendered = render(shown);
    const tokens = await counter.count(rendered.text);
    if (tokens > budget) break;
    best = { text: rendered.text, tokens, budget, files: shown.map((s) => s.file.path), spans: rendered.spans };
  }
  return best;
}
