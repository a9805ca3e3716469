import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const CODE_CACHE = fileURLToPath(new URL("../../dist/src/cli/code-cache.js", import.meta.url));

/** A CommonJS bundle that reports how it was run, requires a file beside it and loads a package lazily. */
const BUNDLE = `
const dep = require("./dep.cjs");
const { Piscina } = require("piscina");
module.exports = { dep };
function later() { return typeof Piscina; }
process.stdout.write(JSON.stringify({ file: __filename, dir: __dirname, dep, isExports: this === exports, later: later() }));
// a last line that is a comment`;

describe("runBundle (V8's code cache for the CLI's bundle)", () => {
  let dir: string;
  let cache: string;
  let bundle: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "ctxsmith-code-cache-"));
    cache = join(dir, "cache");
    bundle = join(dir, "dist", "bundle.cjs");
    mkdirSync(join(dir, "dist"));
    writeFileSync(bundle, BUNDLE);
    writeFileSync(join(dir, "dist", "dep.cjs"), "module.exports = 42;\n");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the bundle in a process of its own (the cache is written when that process ends). */
  function run(cacheDir: string | null, file = bundle, env: Record<string, string> = {}, variant?: string): { status: number | null; out: string; use: string; stderr: string } {
    const driver = `import { runBundle } from ${JSON.stringify(CODE_CACHE)}; process.stderr.write("use=" + runBundle(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)}, ${JSON.stringify(variant)}) + "\\n");`;
    // piscina resolves from the project's node_modules, as the real bundle's packages do from dist/.
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", driver], { encoding: "utf8", env: { ...process.env, ...env, NODE_PATH: fileURLToPath(new URL("../../node_modules", import.meta.url)) } });
    return { status: r.status, out: r.stdout, use: /use=(\w+)/.exec(r.stderr)?.[1] ?? "", stderr: r.stderr };
  }
  const files = (): string[] => (existsSync(join(cache, "v8")) ? readdirSync(join(cache, "v8")) : []);

  it("runs the bundle as Node runs a CommonJS module, then from the cache it wrote", () => {
    const first = run(cache);
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.out)).toEqual({ file: bundle, dir: join(dir, "dist"), dep: 42, isExports: true, later: "function" });
    expect(first.use).toBe("miss");
    expect(files()).toHaveLength(1);
    expect(files()[0]).toMatch(/^bundle\.cjs-[0-9a-f]{8}-[0-9a-z.]+-[0-9a-f]+-default\.bin$/);
    const written = statSync(join(cache, "v8", files()[0]!)).mtimeMs;

    const second = run(cache);
    expect(second.use).toBe("hit");
    expect(second.out).toBe(first.out);
    // A hit writes nothing.
    expect(statSync(join(cache, "v8", files()[0]!)).mtimeMs).toBe(written);
  });

  it("looks at a cache it took again once it is ten minutes old: written again when the run compiled more, else only marked", () => {
    // A function that only some runs call: a cache written by a run that did not lacks it.
    const body = Array.from({ length: 200 }, (_, i) => `  total += (x * ${i}) % ${i + 7};`).join("\n");
    writeFileSync(bundle, `${BUNDLE}\nfunction extra(x) {\n  let total = 0;\n${body}\n  return total;\n}\nif (process.env.EXTRA) extra(3);\n`);
    expect(run(cache).use).toBe("miss");
    const path = join(cache, "v8", files()[0]!);
    const small = statSync(path).size;
    const old = new Date(Date.now() - 11 * 60 * 1000);
    // A run with nothing more to keep: the cache is only marked as looked at.
    utimesSync(path, old, old);
    expect(run(cache).use).toBe("hit");
    expect(statSync(path).mtimeMs).toBeGreaterThan(old.getTime() + 60_000);
    expect(statSync(path).size).toBe(small);
    // Not old: a run that compiles more writes nothing yet.
    expect(run(cache, bundle, { EXTRA: "1" }).use).toBe("hit");
    expect(statSync(path).size).toBe(small);
    // Old, and the run compiled more: written again, with what it had and what it added.
    utimesSync(path, old, old);
    expect(run(cache, bundle, { EXTRA: "1" }).use).toBe("hit");
    expect(statSync(path).size).toBeGreaterThan(small);
    expect(run(cache).use).toBe("hit");
    expect(files()).toHaveLength(1);
  });

  it("keeps a cache per variant (a command), and a new build's replaces every variant of the old build", () => {
    expect(run(cache, bundle, {}, "context").use).toBe("miss");
    expect(run(cache, bundle, {}, "index").use).toBe("miss");
    expect(files().map((f) => f.replace(/^.*-/, "")).sort()).toEqual(["context.bin", "index.bin"]);
    expect(run(cache, bundle, {}, "context").use).toBe("hit");
    expect(run(cache, bundle, {}, "index").use).toBe("hit");
    writeFileSync(bundle, `${BUNDLE}\n// a new build\n`);
    expect(run(cache, bundle, {}, "context").use).toBe("miss");
    expect(files().map((f) => f.replace(/^.*-/, ""))).toEqual(["context.bin"]);
  });

  it("never uses the cache of another build, and removes it when it writes its own", () => {
    run(cache);
    const old = files();
    writeFileSync(bundle, BUNDLE.replace("dep,", "dep: dep + 1,").replace("module.exports = { dep }", "module.exports = { dep: dep + 1 }"));
    const r = run(cache);
    expect(r.use).toBe("miss");
    expect(JSON.parse(r.out).dep).toBe(43);
    expect(files()).toHaveLength(1);
    expect(files()).not.toEqual(old);
  });

  it("takes a bundle rewritten in place with as many bytes for a new build (the cache is named by the file's times, not its bytes)", () => {
    writeFileSync(bundle, `${BUNDLE}\nprocess.stderr.write("built A");\n`);
    expect(run(cache).use).toBe("miss");
    expect(run(cache).stderr).toContain("built A");
    writeFileSync(bundle, `${BUNDLE}\nprocess.stderr.write("built B");\n`);
    const r = run(cache);
    expect(r.use).toBe("miss");
    expect(r.stderr).toContain("built B");
    expect(files()).toHaveLength(1);
    expect(run(cache).use).toBe("hit");
  });

  it("keeps the caches of the same bundle installed in two places apart", () => {
    const other = join(dir, "other", "bundle.cjs");
    mkdirSync(join(dir, "other"));
    writeFileSync(other, BUNDLE);
    writeFileSync(join(dir, "other", "dep.cjs"), "module.exports = 42;\n");
    expect(run(cache).use).toBe("miss");
    expect(run(cache, other).use).toBe("miss");
    expect(files()).toHaveLength(2);
    expect(run(cache).use).toBe("hit");
    expect(run(cache, other).use).toBe("hit");
  });

  it("compiles afresh past a damaged cache, and replaces it", () => {
    run(cache);
    const path = join(cache, "v8", files()[0]!);
    writeFileSync(path, Buffer.alloc(4096, 7));
    const r = run(cache);
    expect(r.status, r.stderr).toBe(0);
    expect(r.use).toBe("rejected");
    expect(JSON.parse(r.out).dep).toBe(42);
    expect(readFileSync(path).equals(Buffer.alloc(4096, 7))).toBe(false);
    expect(run(cache).use).toBe("hit");
  });

  it("runs as well where the cache cannot be written (a file where its folder would be, a read-only folder)", () => {
    writeFileSync(cache, "not a folder");
    const r = run(cache);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.out).dep).toBe(42);
    expect(r.use).toBe("miss");

    const readOnly = join(dir, "read-only");
    mkdirSync(join(readOnly, "v8"), { recursive: true });
    chmodSync(join(readOnly, "v8"), 0o555);
    const again = run(readOnly);
    expect(again.status, again.stderr).toBe(0);
    // Root may write anywhere; anyone else leaves neither a cache nor a half-written file.
    if (process.getuid?.() !== 0) expect(readdirSync(join(readOnly, "v8"))).toEqual([]);
  });

  it("writes no cache from a run that changed V8's flags (the next run would refuse it), and uses one written by another", () => {
    writeFileSync(bundle, `${BUNDLE}\nif (process.env.FLAGS) require("node:v8").setFlagsFromString("--expose-gc");\n`);
    const changed = run(cache, bundle, { FLAGS: "1" });
    expect(changed.use).toBe("miss");
    expect(files()).toEqual([]);
    expect(run(cache).use).toBe("miss");
    expect(run(cache, bundle, { FLAGS: "1" }).use).toBe("hit");
  });

  it("writes no cache from a run that failed: it compiled little of what a working run does", () => {
    writeFileSync(bundle, `${BUNDLE}\nprocess.exitCode = 1;\n`);
    const failed = run(cache);
    expect(failed.status).toBe(1);
    expect(files()).toEqual([]);
  });

  it("keeps no cache when told to", () => {
    const r = run(null);
    expect(r.use).toBe("off");
    expect(JSON.parse(r.out).dep).toBe(42);
    expect(existsSync(cache)).toBe(false);
  });

  it("reports a bundle's error as a module's, naming the bundle, and writes no cache for a run that exits on purpose", () => {
    writeFileSync(bundle, "throw new Error('broken bundle');\n");
    const broken = run(cache);
    expect(broken.status).not.toBe(0);
    expect(broken.stderr).toContain("broken bundle");
    expect(broken.stderr).toContain(bundle);

    writeFileSync(bundle, "process.stdout.write('bye'); process.exit(0);\n");
    const exited = run(cache);
    expect(exited.out).toBe("bye");
    expect(files()).toEqual([]);
  });
});
