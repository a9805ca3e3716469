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

/** Re-packs of the code to make room for notes, at most. */
const MAX_REPACKS = 2;

/**
 * Adds the notes of `all` pinned to the code a packed context shows, within the same budget: when
 * they do not fit beside the code, the code is packed again (`repack`) into the room the notes
 * leave, as long as that keeps at least half the budget for code; otherwise the longest note is let
 * go (a long note never hides the short ones). The result reports the budget asked for.
 */
export async function attachNotes(
  packed: ContextResult,
  all: readonly NoteView[],
  repack: (budget: number) => Promise<ContextResult>,
  counter: AsyncTokenCounter,
): Promise<ContextWithNotes> {
  if (all.length === 0) return packed;
  const budget = packed.budget;
  let result = packed;
  let notes = Notebook.shownIn(all, result.spans);
  // Each round fits, re-packs (at most MAX_REPACKS times) or lets a note go: it ends.
  for (let repacks = 0; notes.length > 0; ) {
    const text = `${result.text}\n${renderNotes(notes)}`;
    const tokens = await counter.count(text);
    if (tokens <= budget) return { ...result, budget, text, tokens, notes };
    const room = budget - (tokens - result.tokens);
    if (repacks < MAX_REPACKS && room >= budget / 2) {
      repacks++;
      result = await repack(room);
      // The code packed into less room may no longer show what some notes are pinned to.
      notes = Notebook.shownIn(notes, result.spans);
    } else notes = withoutLongest(notes);
  }
  // No note fits: the code keeps the whole budget.
  return packed;
}

function withoutLongest(notes: readonly NoteView[]): NoteView[] {
  let longest = 0;
  notes.forEach((n, i) => {
    if (n.text.length > notes[longest]!.text.length) longest = i;
  });
  return notes.filter((_, i) => i !== longest);
}
