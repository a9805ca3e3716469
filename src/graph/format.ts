/**
 * Plain-text renderings of the graph answers, shared by the CLI and the MCP server: compact, one
 * line per fact, paths with line numbers an agent can open.
 */
import { formatBytes, formatCount } from "../core/format.js";
import type { ApiMap } from "./api-links.js";
import type { ApiHop, CallsResult, ImpactNode, ImpactResult, OverviewResult, RelatedResult, SymbolLocation, SymbolLookup } from "./types.js";

function where(s: SymbolLocation): string {
  return `${s.path}:${s.startLine}`;
}

export function formatLookup(result: SymbolLookup): string {
  // A C/C++ prototype and its definition are one function, not two meanings of a name.
  const definitions = result.matches.filter((s) => !s.decl).length;
  const head = definitions > 1 ? `${result.query} is ambiguous: ${definitions} definitions\n\n` : "";
  return head + result.matches
    .map((s) => `${where(s)}-${s.endLine}  ${s.kind} ${s.qualifiedName}${s.decl ? " (declaration)" : ""}\n    ${s.signature}${s.doc ? `\n    ${s.doc}` : ""}\n`)
    .join("");
}

export function formatCalls(result: CallsResult, direction: "callers" | "callees"): string {
  const lines = [`${result.targets.map((t) => `${t.kind} ${t.qualifiedName} (${where(t)})`).join(", ")}`];
  if (result.calls.length === 0) lines.push(direction === "callers" ? "  no callers found in the repository" : "  calls nothing defined in the repository");
  for (const c of result.calls) {
    const who = c.symbol ? `${c.symbol.qualifiedName}${direction === "callees" ? ` (${where(c.symbol)})` : ""}` : "<module>";
    const note = c.how === "ambiguous" ? `  [ambiguous: ${c.candidates} candidates]` : c.how === "unique" ? "  [by name]" : "";
    lines.push(`  ${c.path}:${c.line}  ${who}${note}`);
  }
  if (result.api?.length) lines.push(direction === "callers" ? "  over HTTP (requests that reach it as a route handler):" : "  over HTTP (the route handlers its requests reach):", ...result.api.map((h) => `    ${formatHop(h)}`));
  return `${lines.join("\n")}\n`;
}

/** One hop across the API contract: `web src/login.ts:3  submitLogin  POST /api/users/login → login [0.9: same path]`. */
export function formatHop(h: ApiHop): string {
  return `${h.repo} ${h.file}:${h.line}  ${h.symbol ?? "<module>"}  ${h.method} ${h.path}${h.via ? ` (${h.via})` : ""}  [${h.confidence}: ${h.how}]`;
}

export function formatImpact(result: ImpactResult, limit: { maxLines: number; more: string }): string {
  const out = [`Impact of ${result.targets.map((t) => `${t.qualifiedName} (${where(t)})`).join(", ")}`];
  let printed = 0;
  let omitted = 0;
  const walk = (nodes: readonly ImpactNode[], indent: string): void => {
    for (const n of nodes) {
      if (printed >= limit.maxLines) {
        omitted++;
        walk(n.children, indent);
        continue;
      }
      printed++;
      const name = n.symbol ? n.symbol.qualifiedName : "<module>";
      const marks = `${n.isTest ? " [test]" : ""}${n.seen ? " (see above)" : ""}${n.how === "ambiguous" ? " [ambiguous]" : ""}`;
      out.push(`${indent}${name}  ${n.path}:${n.lines.join(",")}${marks}`);
      walk(n.children, `${indent}  `);
    }
  };
  walk(result.tree, "  ");
  if (omitted > 0) out.push(`  … ${formatCount(omitted)} more lines (${limit.more})`);
  const c = result.counts;
  out.push("");
  out.push(`${formatCount(c.symbols)} callers in ${formatCount(c.files)} files: ${formatCount(c.production)} production files, ${formatCount(c.tests)} test files`);
  out.push(`by depth: ${result.byDepth.map((n, i) => `${i + 1}: ${formatCount(n)}`).join(", ") || "none"}${result.truncated ? ` (cut at depth ${result.depth}; there are callers further up)` : ""}`);
  if (result.tests.length > 0) out.push(`tests to run: ${result.tests.slice(0, 20).join(" ")}${result.tests.length > 20 ? " …" : ""}`);
  if (result.api?.length) out.push(`reached over HTTP by ${formatCount(result.api.length)} request${result.api.length === 1 ? "" : "s"} (API links):`, ...result.api.slice(0, 50).map((h) => `  ${formatHop(h)}`));
  return `${out.join("\n")}\n`;
}

export function formatRelated(r: RelatedResult): string {
  const section = (title: string, items: string[]): string => `${title}${items.length === 0 ? " none" : `\n${items.map((i) => `  ${i}`).join("\n")}`}\n`;
  return [
    `${r.path}\n`,
    section("imports:", r.imports),
    section("imported by:", r.importedBy),
    section("changes with (shared commits):", r.cochange.slice(0, 15).map((c) => `${c.path}  ${c.commits}`)),
    section("calls into (call sites):", r.calls.slice(0, 15).map((c) => `${c.path}  ${c.sites}`)),
    section("called from (call sites):", r.calledBy.slice(0, 15).map((c) => `${c.path}  ${c.sites}`)),
  ].join("");
}

export function formatOverview(o: OverviewResult): string {
  const t = o.totals;
  const lines = [
    `${o.root}`,
    `${formatCount(t.files)} files, ${formatCount(t.lines)} lines, ${formatBytes(t.bytes)}; ${formatCount(t.symbols)} definitions, ${formatCount(t.resolvedCalls)} of ${formatCount(t.calls)} calls resolved, ${formatCount(t.commits)} commits`,
    "",
    "languages:",
    ...o.languages.slice(0, 12).map((l) => `  ${l.language.padEnd(12)} ${formatCount(l.files).padStart(7)} files ${formatCount(l.lines).padStart(10)} lines`),
    "",
    "central files (PageRank over imports and calls):",
    ...o.central.map((c) => `  ${c.path}  ${c.score}`),
    "",
    "hot files (commits):",
    ...(o.hot.length > 0 ? o.hot.map((h) => `  ${h.path}  ${h.commits}`) : ["  no git history"]),
    "",
    `index: schema ${o.index.schema}, ${formatBytes(o.index.indexBytes)}, semantic ${o.index.semantic ? "on" : "off"}` +
      (o.index.lastRun ? `, last run ${o.index.lastRun.at} (${o.index.lastRun.parsed} files parsed in ${o.index.lastRun.ms} ms)` : ""),
  ];
  return `${lines.join("\n")}\n`;
}


/**
 * The API contract map as text: routes, then calls with the handlers each reaches (`→`, at the
 * handler's definition when it is known) or why none (`✗`). `unmatched`: only the calls that
 * reach nothing.
 */
export function formatApiMap(map: ApiMap, options: { unmatched?: boolean } = {}): string {
  const out: string[] = [];
  const calls = options.unmatched ? map.calls.filter((c) => c.targets.length === 0) : map.calls;
  if (!options.unmatched) {
    out.push(`Routes (${map.routes.length})`);
    for (const r of map.routes) out.push(`  ${r.repo}  ${r.method.padEnd(6)} ${r.path}  ${r.file}:${r.line}${r.handler ? `  ${r.handler}` : ""}`);
    if (map.routes.length === 0) out.push("  none found");
  }
  const linked = calls.filter((c) => c.targets.length > 0).length;
  out.push(`${options.unmatched ? "Unmatched calls" : "Calls"} (${calls.length}${options.unmatched ? "" : `, ${linked} linked`})`);
  for (const c of calls) {
    out.push(`  ${c.repo}  ${c.method.padEnd(6)} ${c.url}  ${c.file}:${c.line}${c.symbol ? ` in ${c.symbol}` : ""}`);
    if (c.targets.length === 0) out.push(`      ✗ ${c.why}`);
    for (const t of c.targets) out.push(`      → ${t.repo}  ${t.method} ${t.pattern}  ${t.handlerFile ?? t.file}:${t.handlerLine ?? t.line}${t.handler ? ` ${t.handler}` : ""}  (${t.how}, ${t.confidence})`);
  }
  return `${out.join("\n")}\n`;
}
