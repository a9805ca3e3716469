import type { ContextResult, SpanKind } from "../types.js";
import type { PackConfig } from "../ranking-config.js";
import { render, renderHeader, renderLine, type LineOwner, type ShownFile } from "./render.js";
import type { AsyncTokenCounter } from "../../runtime/token-worker.js";
import type { Candidate, PackFile } from "./types.js";

/** When a line is shown by two picks, it is reported under the stronger kind. */
const KIND_PRIORITY: Record<SpanKind, number> = { "file-outline": 1, "class-outline": 2, code: 3, body: 3, file: 3 };
/** Tokens per character of rendered code before the first exact count (cl100k and o200k on code). */
export const INITIAL_RATIO = 0.3;
/** Stop refining once the text fills this share of the budget. */
const FULL_ENOUGH = 0.97;
const MAX_ROUNDS = 4;

/** Where a file's shown lines are kept: its path, within its repository when the pack spans several. */
function keyOf(file: PackFile): string {
  return file.repo === undefined ? file.path : `${file.repo}\u0000${file.path}`;
}

/** The packer's state: what is shown, and the picks that put it there, in order. */
interface State {
  shown: Map<string, ShownFile>;
  picks: Candidate[];
}

/**
 * Packs candidates into `budget` tokens: a greedy knapsack by value per token. A pick's cost is
 * what it adds to the text (lines already shown are free; a file's first pick pays for its
 * header), and each further pick from the same file is worth less (`repeatDiscount`).
 *
 * Costs in the greedy are estimated from characters with a tokens-per-character ratio that the
 * exact count of the rendered text recalibrates: fill, render, count; if over, take picks back
 * (last first); if short, fill the rest with the corrected ratio. The budget holds for the final
 * rendered text, counted whole with the real encoder — a few encoder calls per query instead of
 * one per candidate.
 */
export async function pack(candidates: readonly Candidate[], budget: number, counter: AsyncTokenCounter, config: PackConfig): Promise<Omit<ContextResult, "budget">> {
  const state: State = { shown: new Map(), picks: [] };
  let ratio = INITIAL_RATIO;
  let best: Omit<ContextResult, "budget"> = { text: "", tokens: 0, files: [], spans: [] };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const added = fill(state, candidates, budget, ratio, config);
    let result = await renderState(state, counter);
    // Over: take picks back, as many as the overshoot is estimated to need, then count again.
    while (result.tokens > budget) {
      let excess = (result.tokens - budget) / ratio;
      // A pick accounts for its lines whether or not another pick shares them: an overestimate, so fewer recounts.
      do excess -= addedChars(state.picks.pop()!, undefined);
      while (excess > 0 && state.picks.length > 0);
      rebuild(state);
      result = await renderState(state, counter);
    }
    best = result;
    if (added === 0 || result.tokens >= budget * FULL_ENOUGH || result.text.length === 0) break;
    ratio = result.tokens / result.text.length;
  }
  return best;
}

/** Adds picks greedily by estimated value per token until the estimated text fills `budget`. Returns how many. */
function fill(state: State, candidates: readonly Candidate[], budget: number, ratio: number, config: PackConfig): number {
  const chosen = new Set(state.picks);
  const perFile = new Map<string, number>();
  for (const pick of state.picks) perFile.set(keyOf(pick.file), (perFile.get(keyOf(pick.file)) ?? 0) + 1);
  let used = estimateChars(state) * ratio;
  const heap = new MaxHeap<{ candidate: Candidate; density: number }>((e) => e.density);
  // A candidate's added characters change only when its file's shown lines do: memoised per file version.
  const versions = new Map<string, number>();
  const memo = new Map<Candidate, { version: number; chars: number }>();
  const added = (candidate: Candidate): number => {
    const version = versions.get(keyOf(candidate.file)) ?? 0;
    const hit = memo.get(candidate);
    if (hit?.version === version) return hit.chars;
    const chars = addedChars(candidate, state.shown.get(keyOf(candidate.file)));
    memo.set(candidate, { version, chars });
    return chars;
  };
  const density = (candidate: Candidate): number => {
    const cost = added(candidate) * ratio;
    const value = candidate.value * Math.pow(config.repeatDiscount, perFile.get(keyOf(candidate.file)) ?? 0);
    return cost > 0 ? value / cost : -1;
  };
  for (const candidate of candidates) if (!chosen.has(candidate)) heap.push({ candidate, density: density(candidate) });

  let picked = 0;
  // Lazy greedy: densities only fall as picks are made (lines get shared, discounts grow), so a
  // popped entry is re-scored and taken only if it still beats the next one.
  for (let entry = heap.pop(); entry; entry = heap.pop()) {
    const { candidate } = entry;
    const current = density(candidate);
    if (current <= 0) continue;
    const next = heap.peek();
    if (next && current < next.density) {
      heap.push({ candidate, density: current });
      continue;
    }
    const cost = added(candidate) * ratio;
    if (used + cost > budget) continue;
    show(state.shown, candidate);
    state.picks.push(candidate);
    perFile.set(keyOf(candidate.file), (perFile.get(keyOf(candidate.file)) ?? 0) + 1);
    versions.set(keyOf(candidate.file), (versions.get(keyOf(candidate.file)) ?? 0) + 1);
    used += cost;
    picked++;
  }
  return picked;
}

async function renderState(state: State, counter: AsyncTokenCounter): Promise<Omit<ContextResult, "budget">> {
  const ordered = [...state.shown.values()].sort((a, b) => a.file.rank - b.file.rank);
  const { text, spans } = render(ordered);
  const files = ordered.map((s) => s.file.path);
  // A workspace pack says which repository each file is of (paths may repeat across repositories).
  const repos = ordered.some((s) => s.file.repo !== undefined) ? { repos: ordered.map((s) => s.file.repo ?? "") } : {};
  return { text, tokens: await counter.count(text), files, spans, ...repos };
}

/** Characters the candidate adds to the text: new lines, a gap line per new run, a header for a new file. */
function addedChars(candidate: Candidate, file: ShownFile | undefined): number {
  if (!file) {
    const header = renderHeader(candidate.file, candidate.ranges.map(([start, end]) => ({ path: "", start, end, kind: "body", symbol: candidate.symbol }))).length;
    return header + 4 + candidate.chars + 2 * candidate.ranges.length;
  }
  let chars = 0;
  for (const [start, end] of candidate.ranges) {
    let inRun = false;
    for (let line = start; line <= end; line++) {
      if (file.lines.has(line)) {
        inRun = false;
        continue;
      }
      chars += renderLine(candidate.file, line).length + (inRun ? 0 : 2);
      inRun = true;
    }
  }
  return chars;
}

/** Characters of the whole state's text, estimated the same way as {@link addedChars}. */
function estimateChars(state: State): number {
  const shown: State = { shown: new Map(), picks: [] };
  let chars = 0;
  for (const pick of state.picks) {
    chars += addedChars(pick, shown.shown.get(keyOf(pick.file)));
    show(shown.shown, pick);
  }
  return chars;
}

function rebuild(state: State): void {
  state.shown.clear();
  for (const pick of state.picks) show(state.shown, pick);
}

function show(shown: Map<string, ShownFile>, candidate: Candidate): void {
  let file = shown.get(keyOf(candidate.file));
  if (!file) shown.set(keyOf(candidate.file), (file = { file: candidate.file, lines: new Map<number, LineOwner>() }));
  for (const [start, end] of candidate.ranges) {
    for (let line = start; line <= end; line++) {
      const owner = file.lines.get(line);
      if (!owner || KIND_PRIORITY[candidate.kind] > KIND_PRIORITY[owner.kind]) file.lines.set(line, { kind: candidate.kind, symbol: candidate.symbol });
    }
  }
}

/** A binary max-heap by `key`. */
class MaxHeap<T> {
  readonly #items: T[] = [];
  constructor(readonly key: (item: T) => number) {}

  push(item: T): void {
    const items = this.#items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.key(items[parent]!) >= this.key(items[i]!)) break;
      [items[parent], items[i]] = [items[i]!, items[parent]!];
      i = parent;
    }
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.key(items[l]!) > this.key(items[m]!)) m = l;
        if (r < items.length && this.key(items[r]!) > this.key(items[m]!)) m = r;
        if (m === i) break;
        [items[m], items[i]] = [items[i]!, items[m]!];
        i = m;
      }
    }
    return top;
  }
}
