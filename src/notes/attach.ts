import type { AsyncTokenCounter } from "../runtime/token-worker.js";
import type { ContextResult } from "../query/types.js";
import { renderNotes } from "./format.js";
import { Notebook } from "./notebook.js";
import type { NoteView } from "./types.js";

/** A packed context with the notes pinned to the code it shows. */
export interface ContextWithNotes extends ContextResult {
  /** Notes pinned to the code shown (rendered at the end of `text`), when there are any. */
  notes?: NoteView[];
}

/**
 * Adds the notes of `all` pinned to the code a packed context shows, within the same budget: when
 * they do not fit beside the code, the code is packed again (`repack`) into what the notes leave.
 */
export async function attachNotes(
  packed: ContextResult,
  all: readonly NoteView[],
  repack: (budget: number) => Promise<ContextResult>,
  counter: AsyncTokenCounter,
): Promise<ContextWithNotes> {
  if (all.length === 0) return packed;
  let result = packed;
  let notes = Notebook.shownIn(all, result.spans);
  for (let attempt = 0; notes.length > 0 && attempt < 3; attempt++) {
    const text = `${result.text}\n${renderNotes(notes)}`;
    const tokens = await counter.count(text);
    if (tokens <= result.budget) return { ...result, text, tokens, notes };
    if (attempt === 0) {
      // Notes on the code shown come first: make room for them, then keep those still shown.
      const room = result.budget - (tokens - result.tokens);
      if (room < result.budget / 2) notes = notes.slice(0, Math.max(0, notes.length - 1));
      else {
        result = await repack(room);
        notes = Notebook.shownIn(all, result.spans);
      }
    } else notes = notes.slice(0, notes.length - 1);
  }
  return result;
}
