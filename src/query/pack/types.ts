import type { Language } from "../../core/types.js";
import type { SpanKind } from "../types.js";

/** A file whose code may be packed, with what packing needs to know about it. */
export interface PackFile {
  path: string;
  /** 1-based rank in the fused ranking. */
  rank: number;
  language: Language | null;
  /** The file's lines (without line ends). */
  lines: string[];
  /** Why it was chosen, for the header: "lexical #1, references #2". */
  why: string;
}

/** Something the packer may show: a set of line ranges of one file, worth `value`. */
export interface Candidate {
  file: PackFile;
  kind: SpanKind;
  symbol: string | null;
  /** 1-based inclusive ranges, sorted, not overlapping. */
  ranges: Array<[number, number]>;
  value: number;
}
