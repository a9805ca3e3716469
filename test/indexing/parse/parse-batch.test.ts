import { describe, expect, it } from "vitest";
import { Grammars } from "../../../src/indexing/parse/grammars.js";
import { parseBatch } from "../../../src/indexing/parse/parse-batch.js";
import { PROTOCOL_VERSION } from "../../../src/indexing/protocol.js";
import { TempRepo } from "../../helpers/repo.js";

describe("parseBatch", () => {
  it("skips an array of numbers compiled in as generated, and parses code full of numbers", () => {
    const row = "0x00, 0x00, 0xff, 0xff, 0x55, 0x55, 0x55, 0x55, 0x00, 0x00, 0xff, 0xff,\n";
    const table = "static const int k[] = {" + Array.from({ length: 400 }, (_, i) => `  ${i}, ${i * 7}, ${i * 13}, // row ${i}\n`).join("") + "};\nint lookup(int i) { return k[i]; }\n";
    // Mostly spaces, and code all the same.
    const deep = Array.from({ length: 300 }, (_, i) => `${" ".repeat(i)}def g${i}():\n`).join("") + `${" ".repeat(300)}pass\n`;
    const repo = TempRepo.create({ "card.inl": row.repeat(400), "table.c": table, "deep.py": deep });
    try {
      const file = (path: string, language: "cpp" | "c" | "python") => ({ path, size: 0, mtimeMs: 0, language, expectHash: null });
      const result = parseBatch(new Grammars(), {
        version: PROTOCOL_VERSION,
        root: repo.root,
        files: [file("card.inl", "cpp"), file("table.c", "c"), file("deep.py", "python")],
        limits: { maxFileBytes: 1 << 20, maxLineChars: 10_000, maxMeanLineChars: 1_000 },
        lexical: false,
      });
      expect(result.updates[0]).toMatchObject({ kind: "skip", reason: "generated" });
      expect(result.updates[1]).toMatchObject({ kind: "index", counts: { symbols: 1 } });
      expect(result.updates[2]).toMatchObject({ kind: "index" });
    } finally {
      repo.dispose();
    }
  });
});
