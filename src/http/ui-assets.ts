import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The web UI's files, read once at start: only these names are ever served. */
export type UiAssets = ReadonlyMap<string, { body: Uint8Array; type: string }>;

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
};

/**
 * Where the built UI is: `dist/ui`, beside the bundled CLI or two folders up from this module.
 * Null when it was not built.
 */
export function defaultUiDir(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  // Bundled (dist/ctxsmith.js), compiled (dist/src/http/), or run from the sources (src/http/, in tests).
  for (const dir of [join(here, "ui"), join(here, "..", "..", "ui"), join(here, "..", "..", "dist", "ui")]) {
    if (existsSync(join(dir, "index.html"))) return dir;
  }
  return null;
}

/** The files of `dir` (one level, known types only), or an empty map. */
export function loadUiAssets(dir: string | null): UiAssets {
  const assets = new Map<string, { body: Uint8Array; type: string }>();
  if (!dir) return assets;
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    const path = join(dir, name);
    if (type && statSync(path).isFile()) assets.set(name, { body: readFileSync(path), type });
  }
  return assets;
}
