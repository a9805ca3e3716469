/**
 * Tunes the fusion on the benchmark's cached signal rankings (`ctxsmith bench` writes them to
 * OUT/signals/): a coordinate search over the signal weights, the RRF constant and the test
 * penalty, re-fusing in memory with the product's own `fuse` — seconds, no re-indexing.
 *
 * Scored so one repository cannot dominate (sympy has 77 of the 140 tuning instances):
 * - the objective is the mean over repositories of each repository's mean of R@1, R@3, R@5, R@10;
 * - leave-one-repository-out: for each repository, tune on the others and score on it; the mean
 *   of those held-out scores estimates how well the tuned weights generalise;
 * - the weights to freeze are then tuned on all repositories.
 *
 * The neighbour signals (co-change, call graph, declarations, changelog) were computed from the default fusion's top
 * files; re-fusing with other weights keeps those seeds (an approximation, stated in the output).
 * The signal caches hold no release-notes habits: R@k here is the fused ranking's, without the
 * notes the product places (`notesRank`); the packing phase places them, from the pack caches.
 *
 * With `--packs` (the benchmark's `packs/`: the packable files' texts and symbols), a second
 * phase tunes the packer — rank decay, outline value, match sharpness, files packed, repeat
 * discount, whole-file size, the imports' value — by a coordinate search on file and lines in
 * budget (mean over repositories of file@b and lines@b over the budgets), re-packing with the real
 * token counts.
 *
 * With `--mix-sweep 1`, it re-fuses over the score term's share (`scoreMix`) alone and picks it
 * leave-one-repository-out (bench/results-tune/fusion.md).
 *
 * With `--semantic-sweep 1`, it only re-fuses each instance over a grid of the semantic signal's
 * weight and gate (`semanticAgreement`) and prints R@k per cell: run it on the signals of a bench
 * run with a useless model and of one with a useful one (bench/results-tune/semantic.md).
 *
 *   npm run build
 *   node dist/bench/tune.js --signals bench/out/signals [--packs bench/out/packs] [--budgets 4000,8000] [--out bench/results-tune/tune.md]
 *   node dist/bench/tune.js --signals bench/out/signals --semantic-sweep 1
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { scoreContext } from "../src/bench/score.js";
import type { PackCache, SignalCache } from "../src/bench/types.js";
import { fuse } from "../src/query/fusion.js";
import { withRankedNotes } from "../src/query/release-notes.js";
import { fileText, type FileText } from "../src/query/pack/file-text.js";
import { packRanking } from "../src/query/pack/pack-ranking.js";
import { RECENT_COMMITS } from "../src/store/history-index.js";
import { TokenWorker } from "../src/runtime/token-worker.js";
import { DEFAULT_RANKING, resolveRanking, type PackConfig, type RankingConfig, type RankingOverrides } from "../src/query/ranking-config.js";
import type { SignalName } from "../src/query/types.js";
import { benchArgs } from "./args.js";

const opt = benchArgs("tune --signals DIR [--packs DIR] [--budgets 4000,8000] [--out FILE.md] [--rounds N] [--exchange-only 1] [--sweeps coverage,notes] [--semantic-sweep 1] [--mix-sweep 1] [--semantic W]", ["signals"]);
const dir = opt("signals")!;
const rounds = Number(opt("rounds", "3"));
const caches: SignalCache[] = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as SignalCache)
  .filter((c) => c.gold.length > 0);

type Params = { weights: Record<SignalName, number>; rrfK: number; scoreMix: number; testPenalty: number; semanticAgreement?: number };
const KS = [1, 3, 5, 10];
const SIGNAL_GRID: Record<SignalName, number[]> = {
  lexical: [0, 0.5, 1, 1.5, 2, 3],
  symbols: [0, 0.5, 1, 1.5, 2, 3],
  references: [0, 0.5, 1, 2, 3, 4],
  innermostFrame: [0, 0.25, 0.5, 1, 1.5, 2, 3],
  history: [0, 0.25, 0.5, 1, 1.5],
  // With cached signals from a benchmark run that had a real embedding model; without one the signal
  // is empty and every weight scores the same.
  semantic: [0, 0.25, 0.5, 1, 1.5, 2],
  exactName: [0, 0.25, 0.5, 1, 2],
  cochange: [0, 0.1, 0.25, 0.5],
  callgraph: [0, 0.1, 0.25, 0.5],
  centrality: [0, 0.05, 0.1, 0.25, 0.5],
  declarations: [0, 0.1, 0.25, 0.5, 1, 2],
  changelog: [0, 0.1, 0.25, 0.5, 1, 2],
};
const K_GRID = [5, 10, 20, 40, 60, 100];
const MIX_GRID = [0, 0.25, 0.5, 1, 1.5, 2];
const PENALTY_GRID = [0.2, 0.35, 0.5, 0.7, 1];

/** Per-instance recall at each k under `params`. */
function recalls(params: Params, cache: SignalCache): number[] {
  const config = resolveRanking({ weights: params.weights, rrfK: params.rrfK, scoreMix: params.scoreMix, testPenalty: params.testPenalty, ...(params.semanticAgreement === undefined ? {} : { semanticAgreement: params.semanticAgreement }) } as RankingOverrides);
  const ranked = fuse(cache.results, config, cache);
  const rank = new Map(ranked.map((f, i) => [f.path, i + 1]));
  const worst = Math.max(...cache.gold.map((g) => rank.get(g) ?? Infinity));
  return KS.map((k) => (worst <= k ? 1 : 0));
}

/** Mean over repositories of the mean of R@1..R@10; also the per-k macro means. */
function score(params: Params, set: SignalCache[]): { objective: number; perK: number[] } {
  const byRepo = new Map<string, number[][]>();
  for (const c of set) byRepo.set(c.repo, [...(byRepo.get(c.repo) ?? []), recalls(params, c)]);
  const perK = KS.map((_, i) => {
    let sum = 0;
    for (const rows of byRepo.values()) sum += rows.reduce((s, r) => s + r[i]!, 0) / rows.length;
    return sum / byRepo.size;
  });
  return { objective: perK.reduce((a, b) => a + b, 0) / KS.length, perK };
}

/** Coordinate search from the defaults: each parameter over its grid in turn, `rounds` times. */
function tune(set: SignalCache[]): Params {
  let best: Params = { ...defaults, weights: { ...defaults.weights } };
  let bestScore = score(best, set).objective;
  const tryParams = (candidate: Params): void => {
    const s = score(candidate, set).objective;
    if (s > bestScore + 1e-9) {
      best = candidate;
      bestScore = s;
    }
  };
  for (let r = 0; r < rounds; r++) {
    for (const name of Object.keys(SIGNAL_GRID) as SignalName[]) {
      for (const w of SIGNAL_GRID[name]) tryParams({ ...best, weights: { ...best.weights, [name]: w } });
    }
    for (const k of K_GRID) tryParams({ ...best, rrfK: k });
    for (const scoreMix of MIX_GRID) tryParams({ ...best, scoreMix });
    for (const p of PENALTY_GRID) tryParams({ ...best, testPenalty: p });
  }
  return best;
}

const fmt = (x: number): string => (100 * x).toFixed(1);
const repos = [...new Set(caches.map((c) => c.repo))].sort();
// `--semantic W` sets the semantic weight the sweeps start from (0: as without a model).
const defaults: Params = { weights: { ...DEFAULT_RANKING.weights, ...(opt("semantic") === undefined ? {} : { semantic: Number(opt("semantic")) }) }, rrfK: DEFAULT_RANKING.rrfK, scoreMix: DEFAULT_RANKING.scoreMix, testPenalty: DEFAULT_RANKING.testPenalty };
if (opt("semantic-sweep")) {
  // Over all instances and per repository mean; the instances without semantic hits say how many the signal reached.
  const reached = caches.filter((c) => c.results.some((r) => r.name === "semantic" && r.hits.length > 0)).length;
  const rows = [
    `${caches.length} instances (${reached} with semantic hits), ${repos.length} repositories. Each cell: R@1 / R@3 / R@5 / R@10, mean over repositories, then over all instances.`,
    "",
    "| semantic weight | gate (semanticAgreement) | macro | micro |",
    "| --- | --- | --- | --- |",
  ];
  for (const weight of [0, 0.1, 0.25, 0.35, 0.5, 1]) {
    for (const semanticAgreement of weight === 0 ? [0] : [0, 0.2, 0.3, 0.5, 0.8, 1]) {
      const params: Params = { ...defaults, weights: { ...defaults.weights, semantic: weight }, semanticAgreement };
      const macro = score(params, caches).perK;
      const micro = KS.map((_, i) => caches.reduce((sum, c) => sum + recalls(params, c)[i]!, 0) / caches.length);
      rows.push(`| ${weight} | ${semanticAgreement === 0 ? "off" : semanticAgreement} | ${macro.map(fmt).join(" / ")} | ${micro.map(fmt).join(" / ")} |`);
    }
  }
  process.stdout.write(`${rows.join("\n")}\n`);
  process.exit(0);
}
if (opt("mix-sweep")) {
  // The score term's share (scoreMix) over its grid with the other defaults, then leave one
  // repository out: the value chosen on the others, scored on the held-out one.
  const micro = (params: Params): number[] => KS.map((_, i) => caches.reduce((sum, c) => sum + recalls(params, c)[i]!, 0) / caches.length);
  const rows = [`${caches.length} instances, ${repos.length} repositories. R@1 / R@3 / R@5 / R@10, mean over repositories, then over all instances.`, "", "| scoreMix | macro | micro |", "| --- | --- | --- |"];
  for (const scoreMix of MIX_GRID) rows.push(`| ${scoreMix} | ${score({ ...defaults, scoreMix }, caches).perK.map(fmt).join(" / ")} | ${micro({ ...defaults, scoreMix }).map(fmt).join(" / ")} |`);
  const picks: number[] = [];
  const held = repos.map((repo) => {
    const others = caches.filter((c) => c.repo !== repo);
    const objectives = MIX_GRID.map((scoreMix) => score({ ...defaults, scoreMix }, others).objective);
    const pick = MIX_GRID[objectives.reduce((best, o, i) => (o > objectives[best]! + 1e-9 ? i : best), 0)]!;
    picks.push(pick);
    return score({ ...defaults, scoreMix: pick }, caches.filter((c) => c.repo === repo)).perK;
  });
  const mean = KS.map((_, i) => held.reduce((sum, r) => sum + r[i]!, 0) / held.length);
  rows.push("", `Leave one repository out: scoreMix chosen on the others ${picks.join(", ")}; held-out macro R@1/3/5/10 ${mean.map(fmt).join(" / ")}.`);
  process.stdout.write(`${rows.join("\n")}\n`);
  process.exit(0);
}
const lines: string[] = [];
// The packing sweeps alone (`--exchange-only`) need no fusion tuning: they use the shipped fusion.
const final = opt("exchange-only") ? defaults : tuneFusion(lines);

/** The fusion tuning's tables (leave one repository out, then all repositories) into `lines`; the values to freeze. */
function tuneFusion(lines: string[]): Params {
  lines.push(
    "# Fusion tuning",
    "",
    `${caches.length} instances, ${repos.length} repositories; objective = mean over repositories of mean(R@1, R@3, R@5, R@10). Neighbour signals keep the default fusion's seeds.`,
    "",
    "## Leave one repository out",
    "",
    "| held out | n | default R@1/3/5/10 | tuned on the others R@1/3/5/10 |",
    "| --- | --- | --- | --- |",
  );
  const loro: number[][] = [];
  for (const repo of repos) {
    const held = caches.filter((c) => c.repo === repo);
    const tuned = tune(caches.filter((c) => c.repo !== repo));
    const before = score(defaults, held).perK;
    const after = score(tuned, held).perK;
    loro.push(after);
    lines.push(`| ${repo} | ${held.length} | ${before.map(fmt).join(" / ")} | ${after.map(fmt).join(" / ")} |`);
    process.stderr.write(`held out ${repo}: ${after.map(fmt).join(" / ")}\n`);
  }
  const loroMean = KS.map((_, i) => loro.reduce((s, r) => s + r[i]!, 0) / loro.length);
  const final = tune(caches);
  const finalScore = score(final, caches);
  const defaultScore = score(defaults, caches);
  lines.push(
    "",
    `Leave-one-repository-out estimate (mean over held-out repositories) R@1/3/5/10: **${loroMean.map(fmt).join(" / ")}**; the defaults on the same repositories: ${defaultScore.perK.map(fmt).join(" / ")}.`,
    "",
    "## Tuned on all repositories (the values to freeze)",
    "",
    "```json",
    JSON.stringify(final, null, 2),
    "```",
    "",
    `Macro R@1/3/5/10 with these: ${finalScore.perK.map(fmt).join(" / ")} (defaults: ${defaultScore.perK.map(fmt).join(" / ")}).`,
    "",
  );
  return final;
}
const packsDir = opt("packs");
// The sweeps alone are measured with the shipped fusion, so that their rows are the product's.
if (packsDir && existsSync(packsDir)) lines.push(...(await tunePacking(packsDir, final)));
const text = lines.join("\n");
process.stdout.write(text);
const out = opt("out");
if (out) writeFileSync(out, text);

/** The packing phase: coordinate search over the packer's parameters with the tuned fusion. */
async function tunePacking(dir: string, fusion: Params): Promise<string[]> {
  const budgets = (opt("budgets", "4000,8000") ?? "").split(",").map(Number);
  const signals = new Map(caches.map((c) => [c.instance_id, c]));
  const packs = readdirSync(dir)
    .filter((f) => f.endsWith(".json.gz"))
    .map((f) => JSON.parse(gunzipSync(readFileSync(join(dir, f))).toString("utf8")) as PackCache)
    .filter((p) => p.gold.length > 0 && signals.has(p.instance_id));
  // Instances of one repository share most file versions: tokenize each version once.
  const versions = new Map<string, FileText>();
  const version = (f: PackCache["files"][number]): FileText => {
    const key = `${f.path}\0${createHash("sha1").update(f.text).digest("hex")}`;
    let text = versions.get(key);
    if (!text) versions.set(key, (text = fileText(f.path, f.language, f.text)));
    return text;
  };
  const texts = new Map(packs.map((p) => [p.instance_id, new Map(p.files.map((f) => [f.path, { text: version(f), symbols: f.symbols }]))]));
  for (const p of packs) p.files = []; // the texts live on in `versions`
  const counter = new TokenWorker(DEFAULT_RANKING.pack.encoding);
  const base = resolveRanking({ weights: fusion.weights, rrfK: fusion.rrfK, scoreMix: fusion.scoreMix, testPenalty: fusion.testPenalty } as RankingOverrides);

  /** Per repository, the mean over budgets of file@b and lines@b; returned as the macro means [file@b..., lines@b...]. */
  const evaluate = async (pack: PackConfig): Promise<{ objective: number; perMetric: number[]; micro: number[] }> => {
    const config: RankingConfig = resolveRanking({ pack }, base);
    const byRepo = new Map<string, number[][]>();
    for (const p of packs) {
      const cache = signals.get(p.instance_id)!;
      const files = texts.get(p.instance_id)!;
      const focus = new Map(p.focus);
      const releaseNotes = p.releaseNotes?.map((n) => ({ ...n, window: n.window ?? RECENT_COMMITS })) ?? []; // caches before the window's size: 300
      const source = { termWeights: new Map(p.termWeights), focus: (path: string) => focus.get(path) ?? [], text: (path: string): FileText | null => files.get(path)?.text ?? null, symbols: (path: string) => files.get(path)?.symbols, releaseNotes };
      // Ranked as the product ranks: the release notes placed (the packer gives them no code file's place).
      const ranked = withRankedNotes(fuse(cache.results, config, cache), releaseNotes, config);
      const row: number[] = [];
      const scores = await Promise.all(budgets.map(async (budget) => scoreContext((await packRanking(ranked, budget, counter, config, source)).spans, p.gold)));
      row.push(...scores.map((s) => (s.file ? 1 : 0)), ...scores.map((s) => (s.lines ? 1 : 0)));
      byRepo.set(p.repo, [...(byRepo.get(p.repo) ?? []), row]);
    }
    const perMetric = Array.from({ length: 2 * budgets.length }, (_, i) => {
      let sum = 0;
      for (const rows of byRepo.values()) sum += rows.reduce((s, r) => s + r[i]!, 0) / rows.length;
      return sum / Math.max(1, byRepo.size);
    });
    // Over all instances too, as the benchmark's summary counts them.
    const rows = [...byRepo.values()].flat();
    const micro = perMetric.map((_, i) => rows.reduce((sum, r) => sum + r[i]!, 0) / Math.max(1, rows.length));
    return { objective: perMetric.reduce((a, b) => a + b, 0) / Math.max(1, perMetric.length), perMetric, micro };
  };

  // Sweeps of one feature each from the defaults: the exchange between file coverage and lines
  // (how many further files are named, at 4k, and what naming one is worth; coverFiles = maxFiles
  // names none).
  const sweeps: Array<{ key: string; title: string; settings: Array<Partial<PackConfig>> }> = [
    { key: "coverage", title: "File coverage against lines", settings: [{ coverFiles: base.pack.maxFiles }, ...[10, 15, 20, 25, 30].flatMap((coverFiles) => [0.05, 0.1, 0.25, 0.5, 1].map((coverValue) => ({ coverFiles, coverValue })))] },
    { key: "coverTerms", title: "Task terms that choose a named file's definitions", settings: [2, 4, 6, 8, 12, 16, 1000].map((coverTerms) => ({ coverTerms })) },
    // Packs cached before the release notes were (no `releaseNotes`) score the same in every row.
    { key: "notes", title: "Release notes", settings: [{ notesValue: 0 }, ...[0.05, 0.1, 0.2].flatMap((notesShare) => [0.01, 0.05, 0.2].map((notesValue) => ({ notesShare, notesValue })))] },
    { key: "score", title: "Fused score's share as a file's worth", settings: [0, 1, 2, 3, 4, 5, 8].map((scoreSharpness) => ({ scoreSharpness })) },
    { key: "imports", title: "Import statements", settings: [0, 0.02, 0.05, 0.1, 0.2].map((importsValue) => ({ importsValue })) },
    { key: "prose", title: "Task terms on prose lines (comments, docstrings)", settings: [0, 0.1, 0.25, 0.5, 1].map((proseValue) => ({ proseValue })) },
  ];
  const exchange: string[] = [];
  // `--sweeps notes` runs only that one (each row re-packs every instance at every budget).
  const only = opt("sweeps")?.split(",");
  for (const { title, settings } of sweeps.filter((sweep) => !only || only.includes(sweep.key))) {
    const heads = [...budgets.map((b) => `file@${b}`), ...budgets.map((b) => `lines@${b}`)];
    exchange.push(`### ${title}`, "", "Each cell: mean over repositories / over all instances.", "", `| setting | ${heads.join(" | ")} |`, `| --- | ${heads.map(() => "---").join(" | ")} |`);
    for (const setting of settings) {
      const s = await evaluate({ ...base.pack, ...setting });
      exchange.push(`| ${Object.entries(setting).map(([k, v]) => `${k} ${v}`).join(", ")} | ${s.perMetric.map((m, i) => `${fmt(m)} / ${fmt(s.micro[i]!)}`).join(" | ")} |`);
      process.stderr.write(`${exchange[exchange.length - 1]}\n`);
    }
    exchange.push("");
  }
  if (opt("exchange-only")) {
    await counter.close();
    return ["## Packing sweeps, with the default fusion", "", `${packs.length} instances.`, "", ...exchange];
  }

  const grid: Partial<Record<keyof PackConfig, number[]>> = {
    rankDecay: [0.5, 1, 1.5, 2, 3],
    scoreSharpness: [0, 2, 3, 4],
    outlineValue: [0.05, 0.15, 0.3, 0.6],
    matchSharpness: [0, 1, 2, 3, 5, 8],
    maxFiles: [5, 10, 20],
    repeatDiscount: [0.5, 0.8, 1],
    wholeFileLines: [30, 60, 120],
    coverFiles: [5, 10, 15, 20, 30],
    coverValue: [0.05, 0.1, 0.25, 0.5, 1],
    coverTerms: [2, 4, 8],
    importsValue: [0, 0.02, 0.05, 0.1],
  };
  let best: PackConfig = { ...base.pack };
  let bestScore = await evaluate(best);
  const start = bestScore;
  for (let r = 0; r < Math.min(rounds, 2); r++) {
    for (const [key, values] of Object.entries(grid) as Array<[keyof PackConfig, number[]]>) {
      for (const value of values) {
        if (best[key] === value) continue;
        const candidate = { ...best, [key]: value };
        const s = await evaluate(candidate);
        process.stderr.write(`pack ${key}=${value}: ${fmt(s.objective)}\n`);
        if (s.objective > bestScore.objective + 1e-9) {
          best = candidate;
          bestScore = s;
        }
      }
    }
  }
  await counter.close();
  const label = [...budgets.map((b) => `file@${b}`), ...budgets.map((b) => `lines@${b}`)].join(" / ");
  return [
    "## Packing, with the fusion above",
    "",
    `${packs.length} instances. Objective: mean over repositories of ${label}.`,
    "",
    `Before: ${start.perMetric.map(fmt).join(" / ")}; after: **${bestScore.perMetric.map(fmt).join(" / ")}**.`,
    "",
    ...exchange,
    "```json",
    JSON.stringify(best, null, 2),
    "```",
    "",
  ];
}
