import type { SpanKind } from "../types.js";
import type { FileText } from "./file-text.js";

/** A file whose code may be packed, with what packing needs to know about it. */
export interface PackFile extends FileText {
  /** 1-based rank in the fused ranking. */
  rank: number;
  /**
   * Its fused score relative to the best packed file's [0–1]: how far behind the first file the
   * ranking put it. Absent for a file an API link placed, and for files only named or shown by their head.
   */
  scoreShare?: number;
  /** Why it was chosen, for the header: "#1 (lexical #1, references #2)". */
  why: string;
  /** Its repository, in a pack across the repositories of a workspace (paths may repeat across them). */
  repo?: string;
}

/** Something the packer may show: a set of line ranges of one file, worth `value`. */
export interface Candidate {
  file: PackFile;
  kind: SpanKind;
  symbol: string | null;
  /** 1-based inclusive ranges, sorted, not overlapping. */
  ranges: Array<[number, number]>;
  value: number;
  /** Characters of its rendered lines (what it costs when none of them is shown yet). */
  chars: number;
}
