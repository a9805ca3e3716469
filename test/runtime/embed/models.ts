import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeVocab, TINY, writeModelDir, type BertShape } from "../../../bench/models/bert-onnx.js";

/** Words of the shop fixture and the tests' tasks, so the tiny models tokenize them as words. */
export const TEST_WORDS = [
  "charge", "card", "declined", "retry", "policy", "cart", "total", "price", "pricing", "discount", "coupon", "payments", "shop",
  "def", "class", "function", "method", "in", "py", "the", "a", "of", "wait", "before", "again", "checkout", "render", "amount",
  "attempt", "attempts", "delay", "next", "give", "up", "self", "init", "apply", "hello", "world", "un", "##able", "##s", "##ing", "ca", "##rd",
];

/** A tiny BERT-shaped model folder (2 layers, hidden 32) in a temp dir; `seed` makes another vector space. */
export function tinyModel(overrides: Partial<BertShape> = {}, options: { tokenizerJson?: boolean; vocabTxt?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "ctxsmith-model-"));
  return writeModelDir(dir, { ...TINY, vocab: makeVocab(TEST_WORDS), ...overrides }, options);
}
