/** Counts tokens as the engine does. */
export type CountTokens = (text: string) => Promise<number>;

/**
 * Cuts `text` to at most `maxTokens` tokens at a line boundary, saying what was left out. Every
 * tool answer goes through this: an agent's context must never be flooded, whatever was asked.
 */
export async function boundText(text: string, maxTokens: number, count: CountTokens): Promise<string> {
  const total = await count(text);
  if (total <= maxTokens) return text;
  const lines = text.split("\n");
  const notice = (omitted: number): string => `\n… ${omitted} more lines left out to stay within ${maxTokens} tokens: narrow the question (a smaller depth, a more specific name).`;
  // Start from the share of lines the token ratio allows, then step down until it fits.
  let keep = Math.max(0, Math.floor((lines.length * maxTokens) / total) - 1);
  for (;;) {
    const candidate = `${lines.slice(0, keep).join("\n")}${notice(lines.length - keep)}`;
    if (keep === 0 || (await count(candidate)) <= maxTokens) return keep === 0 ? notice(lines.length).trimStart() : candidate;
    keep = Math.floor(keep * 0.9);
  }
}
