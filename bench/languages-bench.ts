/**
 * Per language, on a real repository: how fast files parse (one thread, the whole extraction:
 * tree-sitter's parse, the query, symbols, calls and imports), how much of what they call and
 * import resolves in the index's graph, and a sample of resolved call edges to check by hand.
 *
 *   npm run build
 *   ctxsmith index DIR --no-git
 *   node dist/bench/languages-bench.js --repo DIR [--runs 3] [--sample 8] [--out FILE.md]
 *
 * Each run parses every file the index parsed once; parse figures are the medians of the runs.
 * Resolution figures are read from the index as it is (the graph the indexer built).
 */
import { appendFileSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import { basename, join } from "node:path";
import type { Language, ParsedFile } from "../src/core/types.js";
import { forEachCall, RESOLUTIONS } from "../src/graph/codec.js";
import { parseText } from "../src/indexing/parse/parse-batch.js";
import { Grammars } from "../src/indexing/parse/grammars.js";
import { benchArgs, openIndexOrExit } from "./args.js";

const opt = benchArgs("languages-bench --repo DIR [--runs N] [--sample N] [--out FILE]", ["repo"]);
const root = opt("repo")!;
const runs = Number(opt("runs", "3"));
const sampleSize = Number(opt("sample", "8"));

const store = openIndexOrExit("languages-bench", root);

interface Resolution {
  files: number;
  calls: number;
  resolved: number;
  how: Map<string, number>;
  imports: number;
  importsResolved: number;
  /** C/C++ `#include <…>`, apart: most name the system's headers. */
  system: number;
  systemResolved: number;
  edges: string[];
}

const records = [...store.allFiles()].filter((f) => !f.skipped && f.language !== null);
const resolution = new Map<Language, Resolution>();
const symbolName = (path: string, index: number): string => store.parse.symbols(path)?.[index]?.qualifiedName ?? "?";
for (const record of records) {
  const language = record.language!;
  const r: Resolution = resolution.get(language) ?? { files: 0, calls: 0, resolved: 0, how: new Map(), imports: 0, importsResolved: 0, system: 0, systemResolved: 0, edges: [] };
  resolution.set(language, r);
  r.files++;
  const parsed: ParsedFile | undefined = store.parse.parsed(record.path);
  const graph = store.graph.file(record.path);
  if (!parsed || !graph) continue;
  r.calls += parsed.calls.length;
  forEachCall(graph, (row, ints) => {
    r.resolved++;
    const how = RESOLUTIONS[row.how] ?? "?";
    r.how.set(how, (r.how.get(how) ?? 0) + 1);
    const [file, symbol] = [graph.files[ints[row.at]!]!, ints[row.at + 1]!];
    const caller = row.caller >= 0 ? symbolName(record.path, row.caller) : "<file>";
    r.edges.push(`${record.path}:${row.line} ${caller} → ${file}:${symbolName(file, symbol)} (${how}${row.count > 1 ? `, 1 of ${row.count}` : ""})`);
  });
  parsed.imports.forEach((imp, i) => {
    // C++'s `using namespace` names a namespace, never a file (C#'s `using` imports its files).
    if (imp.kind === "using" && language !== "csharp") return;
    const hit = (graph.imports[i]?.targets.length ?? 0) > 0;
    if (imp.kind === "system") {
      r.system++;
      if (hit) r.systemResolved++;
    } else {
      r.imports++;
      if (hit) r.importsResolved++;
    }
  });
}
await store.close();

const sources = records.map((f) => ({ language: f.language!, text: readFileSync(join(root, f.path), "utf8") }));
const grammars = new Grammars();
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const parseMs = new Map<Language, number[]>();
const megabytes = new Map<Language, number>();
const abandoned = new Map<Language, number>();
for (let run = 0; run < runs; run++) {
  const spent = new Map<Language, number>();
  for (const { language, text } of sources) {
    const t0 = performance.now();
    try {
      const warnings: string[] = [];
      if (!parseText(grammars, language, text, warnings)) throw new Error(warnings.join("; "));
    } catch {
      // Past its parse budget: the indexer keeps such a file as text. Its time counts all the same.
      if (run === 0) abandoned.set(language, (abandoned.get(language) ?? 0) + 1);
    }
    spent.set(language, (spent.get(language) ?? 0) + performance.now() - t0);
    if (run === 0) megabytes.set(language, (megabytes.get(language) ?? 0) + Buffer.byteLength(text) / 1e6);
  }
  for (const [language, ms] of spent) parseMs.set(language, [...(parseMs.get(language) ?? []), ms]);
}

/** A fixed-seed sample, so that two runs show the same edges. */
function sample<T>(list: readonly T[], n: number): T[] {
  let seed = 42;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const picked = new Set<number>();
  while (picked.size < Math.min(n, list.length)) picked.add(Math.floor(next() * list.length));
  return [...picked].sort((a, b) => a - b).map((i) => list[i]!);
}

const pct = (a: number, b: number): string => (b === 0 ? "–" : `${((100 * a) / b).toFixed(1)} %`);
const languages = [...resolution.keys()].sort();
const lines = [
  `### ${basename(root)} (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, median of ${runs} runs, one thread)`,
  "",
  "| language | files | MB | parse ms | files/s | MB/s | abandoned | calls | resolved | imports | resolved | `<system>` includes | resolved |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ...languages.map((l) => {
    const r = resolution.get(l)!;
    const ms = median(parseMs.get(l) ?? [0]);
    const mb = megabytes.get(l) ?? 0;
    return `| ${l} | ${r.files} | ${mb.toFixed(2)} | ${Math.round(ms)} | ${Math.round((1000 * r.files) / ms)} | ${((1000 * mb) / ms).toFixed(2)} | ${abandoned.get(l) ?? 0} | ${r.calls} | ${pct(r.resolved, r.calls)} | ${r.imports} | ${pct(r.importsResolved, r.imports)} | ${r.system || "–"} | ${r.system ? pct(r.systemResolved, r.system) : "–"} |`;
  }),
  "",
  ...languages.flatMap((l) => {
    const r = resolution.get(l)!;
    const how = [...r.how].sort((a, b) => b[1] - a[1]).map(([h, n]) => `${h} ${pct(n, r.resolved)}`).join(", ");
    return [`${l}: resolved calls by how: ${how || "none"}. A sample of resolved calls:`, "", ...sample(r.edges, sampleSize).map((e) => `- \`${e}\``), ""];
  }),
];
const report = lines.join("\n");
process.stdout.write(`${report}\n`);
const out = opt("out");
if (out) appendFileSync(out, `${report}\n`);
