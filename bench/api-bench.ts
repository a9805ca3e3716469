/**
 * The cost of reading HTTP facts at parse time, measured side by side in one process: for every
 * file the repository's index parsed (index it first: files skipped as generated, binary or too
 * large are left out as the indexer leaves them), the whole parse (`extractFile`, which includes the API extraction)
 * and, on the same file, the API extraction alone (the gate that decides whether a file may say
 * anything about HTTP, then its query and reading). Reports the extraction's share of the parse,
 * per language, and how many files passed the gate and had facts.
 *
 *   npm run build
 *   ctxsmith index DIR
 *   node dist/bench/api-bench.js --repo DIR [--runs 3] [--out FILE.md]
 *
 * Each run parses every file once; the medians of the runs are reported.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import { basename, join } from "node:path";
import { isOutlineLanguage } from "../src/core/languages.js";
import type { CodeLanguage } from "../src/core/types.js";
import { extractApiFacts, mentionsHttp } from "../src/indexing/parse/api/index.js";
import { extractFile } from "../src/indexing/parse/extract.js";
import { Grammars } from "../src/indexing/parse/grammars.js";
import { lineIndex } from "../src/indexing/parse/text.js";
import { benchArgs, openIndexOrExit } from "./args.js";

const opt = benchArgs("api-bench --repo DIR [--runs N] [--out FILE]", ["repo"]);
const root = opt("repo")!;
const runs = Number(opt("runs", "3"));

const store = openIndexOrExit("api-bench", root);
const records = [...store.allFiles()].filter((f) => !f.skipped && f.language !== null);
await store.close();
// HTTP facts come from code only.
const sources = records.flatMap((f) => (f.language && !isOutlineLanguage(f.language) ? [{ path: f.path, language: f.language, text: readFileSync(join(root, f.path), "utf8") }] : []));
const grammars = new Grammars();

interface Tally {
  files: number;
  mb: number;
  parseMs: number;
  apiMs: number;
  gated: number;
  withFacts: number;
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const perRun: Array<Map<CodeLanguage, Tally>> = [];
for (let run = 0; run < runs; run++) {
  const tally = new Map<CodeLanguage, Tally>();
  for (const { language, text } of sources) {
    const grammar = grammars.get(language);
    if (!grammar) throw new Error(grammars.failure(language));
    const t0 = performance.now();
    const parsed = extractFile(grammar, language, text);
    const t1 = performance.now();
    // The same work extractFile did for HTTP, alone: the gate, then the query on the tree.
    const tree = grammar.parse(text);
    const lineOf = lineIndex(text);
    const t2 = performance.now();
    const gated = grammar.apiQuery !== null && mentionsHttp(language, text);
    const facts = gated ? extractApiFacts(language, grammar.apiQuery!, tree, parsed.imports, lineOf) : undefined;
    const t3 = performance.now();
    const t = tally.get(language) ?? { files: 0, mb: 0, parseMs: 0, apiMs: 0, gated: 0, withFacts: 0 };
    t.files++;
    t.mb += Buffer.byteLength(text) / 1e6;
    t.parseMs += t1 - t0;
    t.apiMs += t3 - t2;
    if (gated) t.gated++;
    if (facts) t.withFacts++;
    tally.set(language, t);
  }
  perRun.push(tally);
}

const languages = [...perRun[0]!.keys()].sort();
const row = (name: string, pick: (run: Map<CodeLanguage, Tally>) => Tally): string => {
  const t = pick(perRun[0]!);
  const parse = median(perRun.map((r) => pick(r).parseMs));
  const api = median(perRun.map((r) => pick(r).apiMs));
  return `| ${name} | ${t.files} | ${t.mb.toFixed(1)} | ${Math.round(parse)} | ${Math.round(api)} | ${((100 * api) / parse).toFixed(1)} % | ${t.gated} | ${t.withFacts} |`;
};
const sum = (run: Map<CodeLanguage, Tally>): Tally => [...run.values()].reduce((a, t) => ({ files: a.files + t.files, mb: a.mb + t.mb, parseMs: a.parseMs + t.parseMs, apiMs: a.apiMs + t.apiMs, gated: a.gated + t.gated, withFacts: a.withFacts + t.withFacts }), { files: 0, mb: 0, parseMs: 0, apiMs: 0, gated: 0, withFacts: 0 });
const report = [
  `### ${basename(root)} (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, median of ${runs} runs, one thread)`,
  "",
  "| language | files | MB | parse ms | of which API ms | API share | files past the gate | files with facts |",
  "|---|---|---|---|---|---|---|---|",
  ...languages.map((l) => row(l, (run) => run.get(l)!)),
  row("**all**", sum),
  "",
].join("\n");
process.stdout.write(`${report}\n`);
const out = opt("out");
if (out) appendFileSync(out, `${report}\n`);
