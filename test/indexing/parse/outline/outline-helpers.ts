import type { ParsedFile } from "../../../../src/core/types.js";

/** A parse's definitions as `kind qualifiedName start-end ^parent` lines, its calls as `receiver.callee @line <caller`. */
export function shape(parsed: ParsedFile): { symbols: string[]; calls: string[] } {
  return {
    symbols: parsed.symbols.map((s) => `${s.kind} ${s.qualifiedName} ${s.startLine}-${s.endLine} ^${s.parent}`),
    calls: parsed.calls.map((c) => `${c.receiver}.${c.callee} @${c.line} <${c.caller}`),
  };
}
