import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pathKey, readCacheFile, writeCacheFile } from "../../src/core/cache-file.js";

describe("cache files", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "ctxsmith-cache-file-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("writes whole files, replaces the older versions named with the same prefix, and reads them back", () => {
    expect(writeCacheFile(join(dir, "v8", "cli-abc-1.bin"), Buffer.from("one"), (name) => name.startsWith("cli-abc-"))).toBe(true);
    writeFileSync(join(dir, "v8", "cli-def-1.bin"), "another install's");
    expect(writeCacheFile(join(dir, "v8", "cli-abc-2.bin"), Buffer.from("two"), (name) => name.startsWith("cli-abc-"))).toBe(true);
    expect(readdirSync(join(dir, "v8")).sort()).toEqual(["cli-abc-2.bin", "cli-def-1.bin"]);
    expect(readCacheFile(join(dir, "v8", "cli-abc-2.bin"))?.toString()).toBe("two");
    expect(readCacheFile(join(dir, "v8", "missing.bin"))).toBeUndefined();
  });

  it("sweeps temporary files that a dead process left an hour ago or more, not those being written now", () => {
    mkdirSync(join(dir, "v8"));
    writeFileSync(join(dir, "v8", "x.bin.111-0-aaaa.tmp"), "abandoned");
    const past = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(join(dir, "v8", "x.bin.111-0-aaaa.tmp"), past, past);
    writeFileSync(join(dir, "v8", "x.bin.222-0-bbbb.tmp"), "another process, writing now");
    expect(writeCacheFile(join(dir, "v8", "x.bin"), Buffer.from("cache"))).toBe(true);
    expect(readdirSync(join(dir, "v8")).sort()).toEqual(["x.bin", "x.bin.222-0-bbbb.tmp"]);
  });

  // Only root runs under sudo.
  it.skipIf(process.getuid?.() !== 0)("writes nothing when run under sudo (root's files would lock the user out of their cache folder)", () => {
    process.env.SUDO_UID = "1000";
    try {
      expect(writeCacheFile(join(dir, "v8", "x.bin"), Buffer.from("cache"))).toBe(false);
      expect(existsSync(join(dir, "v8"))).toBe(false);
    } finally {
      delete process.env.SUDO_UID;
    }
  });

  it("replaces a link at the cache's name instead of writing through it, and says so where it cannot write", () => {
    const target = join(dir, "victim");
    writeFileSync(target, "keep me");
    mkdirSync(join(dir, "v8"));
    symlinkSync(target, join(dir, "v8", "x.bin"));
    expect(writeCacheFile(join(dir, "v8", "x.bin"), Buffer.from("cache"))).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("keep me");
    expect(readFileSync(join(dir, "v8", "x.bin"), "utf8")).toBe("cache");
    expect(readdirSync(join(dir, "v8"))).toEqual(["x.bin"]);

    writeFileSync(join(dir, "blocked"), "a file where the folder would be");
    expect(writeCacheFile(join(dir, "blocked", "x.bin"), Buffer.from("cache"))).toBe(false);
  });

  it("does not read a file that others may write, nor through a link", () => {
    const path = join(dir, "shared.bin");
    writeFileSync(path, "bytes");
    chmodSync(path, 0o666);
    if (process.getuid) expect(readCacheFile(path)).toBeUndefined();
    chmodSync(path, 0o644);
    expect(readCacheFile(path)?.toString()).toBe("bytes");
    symlinkSync(path, join(dir, "link.bin"));
    expect(readCacheFile(join(dir, "link.bin"))).toBeUndefined();
    expect(existsSync(join(dir, "link.bin"))).toBe(true);
  });

  it("names paths apart", () => {
    expect(pathKey("/usr/lib/node_modules/contextsmith/dist/ctxsmith-cli.cjs")).toMatch(/^[0-9a-f]{8}$/);
    expect(pathKey("/a/dist/x.cjs")).not.toBe(pathKey("/b/dist/x.cjs"));
    expect(pathKey("/a/dist/x.cjs")).toBe(pathKey("/a/dist/x.cjs"));
  });
});
