/**
 * Indexing side by side with the fastest peer, `@optave/codegraph` (a Rust core): cold build,
 * no-change build and one-file edit, run alternately (ours, peer, ours, peer, …) on the same tree,
 * whole processes as a user runs them; medians, pairwise ratios, peak RSS and disk size. The peer is
 * installed into a scratch folder outside this project's dependencies (from the npm registry).
 *
 *   npm run build
 *   node dist/bench/peer-bench.js --repo /path/to/checkout [--runs 5] [--peer-dir /tmp/peer] [--edit PATH] [--scenarios cold,no-change,edit] [--out FILE]
 *
 * The one-file edit appends a comment line to `--edit` (relative to the checkout), by default the
 * largest tracked source file that our index parses: the largest of all can be data that we skip
 * after reading it (sympy's `bench_solvers.py`, 446 kB on 544 lines, is "generated" to us), and
 * an edit of it would time a read, not a parse.
 *
 * Peak RSS comes from `/usr/bin/time` (GNU time: the largest process of the run); without it, only
 * wall time is reported.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "../src/bench/summary.js";
import { IndexStore } from "../src/store/store.js";
import { benchArgs } from "./args.js";

const PEER = "@optave/codegraph@3.11.2";
const opt = benchArgs("peer-bench --repo PATH [--runs N] [--peer-dir DIR] [--edit PATH] [--scenarios cold,no-change,edit] [--out FILE]", ["repo"]);
const repo = opt("repo")!;
const runs = Number(opt("runs", "5"));
const peerDir = opt("peer-dir", "/tmp/contextsmith-peer")!;
const out = opt("out");
const cli = fileURLToPath(new URL("../ctxsmith.js", import.meta.url));
const gnuTime = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;

interface Sample {
  wallS: number;
  /** User + system CPU seconds of the process and the children it waited for. */
  cpuS: number | null;
  peakMB: number | null;
}

function timed(cmd: string, args: string[]): Sample {
  const argv = gnuTime ? ["-f", "\n%e %M %U %S", cmd, ...args] : args;
  const t0 = performance.now();
  const r = spawnSync(gnuTime ?? cmd, argv, { cwd: repo, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const wallS = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const last = gnuTime ? r.stderr.trim().split("\n").pop()!.split(" ") : null;
  return { wallS, cpuS: last ? Number(last[2]) + Number(last[3]) : null, peakMB: last ? Number(last[1]) / 1024 : null };
}

function installPeer(): string {
  const bin = join(peerDir, "node_modules", ".bin", "codegraph");
  if (existsSync(bin)) return bin;
  mkdirSync(peerDir, { recursive: true });
  if (!existsSync(join(peerDir, "package.json"))) writeFileSync(join(peerDir, "package.json"), '{ "name": "peer-scratch", "private": true }\n');
  const r = spawnSync("npm", ["install", PEER, "--no-audit", "--no-fund", "--loglevel=error"], { cwd: peerDir, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`npm install ${PEER} failed`);
  return bin;
}

const ours = (): Sample => timed(process.execPath, [cli, "index", ".", "--quiet"]);
const peerBin = installPeer();
// The peer's database lives outside the tree: in it, each side would see the other's files change.
const peerDb = join(peerDir, "db", `${basename(repo)}.db`);
mkdirSync(dirname(peerDb), { recursive: true });
const peer = (): Sample => timed(peerBin, ["build", ".", "--db", peerDb]);
const ourDir = join(repo, ".contextsmith");
// The peer writes `.codegraph/changes.journal` into the tree on every build. Untracked and not
// ignored, it would be a changed file for our next run (a parse, a graph update) that no user's
// no-change run has: git is told to ignore it, as our index folder ignores itself.
const exclude = resolve(repo, spawnSync("git", ["rev-parse", "--git-path", "info/exclude"], { cwd: repo, encoding: "utf8" }).stdout.trim());
if (!existsSync(exclude) || !readFileSync(exclude, "utf8").split("\n").includes(".codegraph/")) {
  mkdirSync(dirname(exclude), { recursive: true });
  appendFileSync(exclude, "\n.codegraph/\n");
}

const tracked = spawnSync("git", ["ls-files", "-z", "--", "*.py", "*.ts", "*.js", "*.go", "*.rs", "*.java"], { cwd: repo, encoding: "utf8", maxBuffer: 1 << 30 })
  .stdout.split("\0")
  .filter((p) => p !== "");

/** The file edited (a real edit: one appended comment line): `--edit`, or the largest tracked source file our index parses. */
function chooseEdit(): string {
  const asked = opt("edit");
  if (asked) return resolve(repo, asked);
  const store = IndexStore.openForRead(ourDir);
  if (!store) throw new Error(`no index in ${ourDir} to choose the edited file from`);
  try {
    const bySize = tracked.map((p) => ({ p, size: statSync(join(repo, p)).size })).sort((a, b) => b.size - a.size);
    const parsed = bySize.find(({ p }) => store.file(p)?.skipped === null);
    if (!parsed) throw new Error("none of the tracked source files is parsed by our index");
    return join(repo, parsed.p);
  } finally {
    void store.close();
  }
}

const log = (line: string): void => void process.stderr.write(`${line}\n`);
type Scenario = { key: string; name: string; before: (side: "ours" | "peer", i: number) => void };
const chosen = new Set(opt("scenarios", "cold,no-change,edit")!.split(","));
const scenarios: Scenario[] = ([
  { key: "cold", name: "cold build", before: (side) => (side === "ours" ? [ourDir] : [peerDb, `${peerDb}-wal`, `${peerDb}-shm`]).forEach((p) => rmSync(p, { recursive: true, force: true })) },
  { key: "no-change", name: "no-change rebuild", before: () => undefined },
  { key: "edit", name: "one-file edit", before: (_side, i) => writeFileSync(editPath, Buffer.concat([original, Buffer.from(`\n${comment} edit ${i}\n`)])) },
] satisfies Scenario[]).filter((s) => chosen.has(s.key));

const results: Array<{ name: string; ours: Sample[]; peer: Sample[] }> = [];
// Both indexes exist before the warm scenarios.
ours();
peer();
const editPath = chooseEdit();
const original = readFileSync(editPath);
const comment = editPath.endsWith(".py") ? "#" : "//";
try {
  for (const s of scenarios) {
    const row = { name: s.name, ours: [] as Sample[], peer: [] as Sample[] };
    for (let i = 0; i < runs; i++) {
      s.before("ours", 2 * i);
      row.ours.push(ours());
      s.before("peer", 2 * i + 1);
      row.peer.push(peer());
      log(`${s.name} ${i + 1}/${runs}: ours ${row.ours[i]!.wallS.toFixed(2)} s, peer ${row.peer[i]!.wallS.toFixed(2)} s`);
    }
    writeFileSync(editPath, original);
    results.push(row);
  }
} finally {
  writeFileSync(editPath, original);
}

const du = (path: string): number => Number(spawnSync("du", ["-sb", path], { encoding: "utf8" }).stdout.split("\t")[0]);
const files = tracked.length;
const f2 = (x: number): string => x.toFixed(2);
const lines = [
  `### ${repo} (${files} tracked source files) — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  "",
  `Medians of ${runs} alternating runs (whole processes); ratio = median of the pairwise ours/peer ratios. Edited file: ${editPath.slice(repo.length + 1)}.`,
  "",
  "| measure | ours | @optave/codegraph 3.11.2 | ratio | ours CPU | peer CPU | ours peak RSS | peer peak RSS |",
  "|---|---|---|---|---|---|---|---|",
  ...results.map((r) => {
    const ratio = median(r.ours.map((o, i) => o.wallS / r.peer[i]!.wallS));
    const peak = (xs: Sample[]): string => (xs[0]?.peakMB == null ? "–" : `${Math.round(median(xs.map((x) => x.peakMB!)))} MB`);
    const cpu = (xs: Sample[]): string => (xs[0]?.cpuS == null ? "–" : `${f2(median(xs.map((x) => x.cpuS!)))} s`);
    return `| ${r.name} | ${f2(median(r.ours.map((x) => x.wallS)))} s | ${f2(median(r.peer.map((x) => x.wallS)))} s | ${f2(ratio)}× | ${cpu(r.ours)} | ${cpu(r.peer)} | ${peak(r.ours)} | ${peak(r.peer)} |`;
  }),
  `| index on disk | ${(du(ourDir) / 1e6).toFixed(1)} MB | ${(du(peerDb) / 1e6).toFixed(1)} MB | ${f2(du(ourDir) / du(peerDb))}× | | | | |`,
  "",
];
process.stdout.write(`${lines.join("\n")}\n`);
if (out) appendFileSync(out, `${lines.join("\n")}\n`);
