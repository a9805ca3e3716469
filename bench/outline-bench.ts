/**
 * The outline scanners on hostile input: files that pass the parse stage's limits (lines up to
 * 20,000 characters, files up to 1 MB) built to make a scanner slow — long runs of spaces or
 * brackets, blocks nested without end, unclosed quotes — beside ordinary files of the same size.
 * Each must stay linear: about a second per MB at most on one thread of this machine.
 *
 *   npm run build
 *   node dist/bench/outline-bench.js [--runs 5] [--out FILE.md]
 */
import { appendFileSync } from "node:fs";
import { cpus } from "node:os";
import type { OutlineLanguage } from "../src/core/types.js";
import { outlineFile } from "../src/indexing/parse/outline/index.js";
import { benchArgs } from "./args.js";

const opt = benchArgs("outline-bench [--runs N] [--out FILE]", []);
const runs = Number(opt("runs", "5"));
const lines = (n: number, line: (i: number) => string): string => Array.from({ length: n }, (_, i) => line(i)).join("\n");
const spaces = " ".repeat(19_990);

const CASES: Array<[name: string, language: OutlineLanguage, text: string]> = [
  ["markdown, ordinary", "markdown", lines(40_000, (i) => (i % 20 === 0 ? `## Heading ${i}` : i % 50 === 1 ? "```" : `Some text on line ${i}, with *emphasis* and a [link](x).`))],
  ["markdown, headings with long space runs", "markdown", lines(49, () => `# a${spaces}x`) + "\n".repeat(3_500)],
  ["markdown, lines of brackets under a heading", "markdown", `# h\n${lines(49, () => "[".repeat(19_990))}`],
  ["markdown, setext titles of spaces", "markdown", lines(49, () => `x${spaces}\n===`)],
  ["css, ordinary", "css", lines(25_000, (i) => `.c${i} .d:hover > x { color: var(--c${i % 50}); margin: 0 }`)],
  ["css, blocks nested without end", "css", ".a {".repeat(250_000)],
  ["css, comments on long lines", "css", lines(49, () => "/**/".repeat(5_000))],
  ["sql, ordinary", "sql", lines(15_000, (i) => `SELECT a, b FROM t${i} JOIN u ON u.id = t${i}.id WHERE x = 'y' AND f(z);`)],
  ["sql, unclosed brackets", "sql", "[".repeat(1_000_000)],
  ["sql, an unclosed string", "sql", `SELECT '${"x".repeat(1_000_000)}`],
  ["sql, comments on long lines", "sql", lines(49, () => "/**/".repeat(5_000))],
  ["json, ordinary", "json", `{${lines(30_000, (i) => `"k${i}": {"a": [1, 2, {"b": "c"}]},`)}"z": 1}`],
  ["json, arrays nested without end", "json", "[".repeat(500_000) + "]".repeat(500_000)],
  ["yaml, ordinary", "yaml", lines(50_000, (i) => `${"  ".repeat(i % 6)}k${i}: v`)],
  ["yaml, lines of spaces", "yaml", lines(49, () => `a${spaces}b`)],
  ["toml, ordinary", "toml", lines(30_000, (i) => (i % 10 === 0 ? `[t${i}.x]` : `k${i} = [1, 2, "a]"]`))],
  ["toml, headers of spaces", "toml", lines(49, () => `[a${spaces}x`)],
  ["toml, dotted keys", "toml", lines(49, () => `${"a.".repeat(9_990)}a = 1`)],
  ["html, ordinary", "html", lines(25_000, (i) => `<div id="d${i}" class="x"><p>text</p></div>`)],
  ["html, unclosed tags and stray end tags", "html", "<div>".repeat(100_000) + "</span>".repeat(100_000)],
  ["html, an unclosed quote", "html", `<img alt='it's here'>\n${lines(20_000, (i) => `<div id="d${i}">x</div>`)}`],
];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows = CASES.map(([name, language, text]) => {
  const ms: number[] = [];
  let symbols = 0;
  for (let run = 0; run < runs; run++) {
    const t0 = performance.now();
    symbols = outlineFile(language, text, () => null).symbols.length;
    ms.push(performance.now() - t0);
  }
  const mb = Buffer.byteLength(text) / 1e6;
  const m = median(ms);
  return `| ${name} | ${mb.toFixed(2)} | ${m.toFixed(0)} | ${(m / mb).toFixed(0)} | ${symbols} |`;
});
const report = [
  `### Outline scanners on hostile input (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, median of ${runs} runs, one thread)`,
  "",
  "| input | MB | ms | ms per MB | definitions |",
  "|---|---|---|---|---|",
  ...rows,
  "",
].join("\n");
process.stdout.write(`${report}\n`);
const out = opt("out");
if (out) appendFileSync(out, `${report}\n`);
