/**
 * The C/C++ include folders a repository's build files name: CMake's `include_directories` and
 * `target_include_directories`, `-I` flags in a `compile_commands.json` or a Makefile. Pure: the
 * graph stage reads the files and hands their text here. Folders come back repository-relative;
 * one outside the repository, or built from a variable that cannot be read here, is left out.
 */

import { dirOf, normalize } from "./modules.js";

const CMAKE_CALL = /\b(?:target_)?include_directories\s*\(([^)]*)\)/gi;
const CMAKE_KEYWORDS: ReadonlySet<string> = new Set(["PUBLIC", "PRIVATE", "INTERFACE", "SYSTEM", "BEFORE", "AFTER"]);
/** `-Idir`, `-I dir`, `-isystem dir`, `-iquote dir`. */
const INCLUDE_FLAG = /(?:^|[\s="'])(?:-I|-isystem|-iquote|-idirafter)\s*("[^"]+"|'[^']+'|[^\s"']+)/g;

/** Whether a path is a build file that may name include folders. */
export function isBuildFile(path: string): boolean {
  const base = path.slice(path.lastIndexOf("/") + 1);
  return base === "CMakeLists.txt" || base === "compile_commands.json" || base === "Makefile" || base === "makefile" || base === "GNUmakefile" || /\.(?:cmake|mk)$/i.test(base);
}

/**
 * The include folders one build file names, repository-relative, in the order it names them.
 * `root` is the repository's absolute path (compile_commands.json holds absolute paths).
 */
export function includeDirsOf(path: string, text: string, root: string): string[] {
  const dir = dirOf(path);
  const base = path.slice(path.lastIndexOf("/") + 1);
  if (base === "compile_commands.json") return compileCommands(text, root);
  if (base === "CMakeLists.txt" || base.toLowerCase().endsWith(".cmake")) return cmake(text, dir);
  return flags(text, (flag) => (flag.includes("$") ? null : join(dir, flag)));
}

function cmake(text: string, dir: string): string[] {
  const out: string[] = [];
  const source = text.replace(/#[^\n]*/g, "");
  for (const call of source.matchAll(CMAKE_CALL)) {
    const target = /^\s*target_/i.test(call[0]);
    const args = tokens(call[1] ?? "");
    for (const [i, arg] of args.entries()) {
      if ((target && i === 0) || CMAKE_KEYWORDS.has(arg)) continue;
      // `$<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>`: the folder a build uses.
      const unwrapped = /^\$<BUILD_INTERFACE:(.*)>$/.exec(arg)?.[1] ?? arg;
      if (unwrapped.startsWith("$<")) continue;
      const expanded = unwrapped
        .replace(/\$\{(?:CMAKE_CURRENT_SOURCE_DIR|CMAKE_CURRENT_LIST_DIR)\}/g, dir === "" ? "." : dir)
        .replace(/^\$\{(?:CMAKE_SOURCE_DIR|PROJECT_SOURCE_DIR|\w+_SOURCE_DIR)\}/, ".");
      if (expanded.includes("$") || expanded.startsWith("/")) continue;
      const folder = /^\$\{/.test(unwrapped) ? inside(expanded) : join(dir, expanded);
      if (folder !== null) out.push(folder);
    }
  }
  return unique(out);
}

function compileCommands(text: string, root: string): string[] {
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(entries)) return [];
  const top = absoluteNormalize(root);
  const prefix = `${top}/`;
  const relative = (abs: string): string | null => (abs === top ? "" : abs.startsWith(prefix) ? inside(abs.slice(prefix.length)) : null);
  const out: string[] = [];
  for (const entry of entries.slice(0, 20_000)) {
    if (!entry || typeof entry !== "object") continue;
    const { directory, command, arguments: args } = entry as { directory?: unknown; command?: unknown; arguments?: unknown };
    const line = typeof command === "string" ? command : Array.isArray(args) ? args.filter((a) => typeof a === "string").join(" ") : "";
    const cwd = typeof directory === "string" ? directory : root;
    out.push(...flags(line, (flag) => {
      const abs = flag.startsWith("/") ? flag : `${cwd.replace(/\/$/, "")}/${flag}`;
      return relative(absoluteNormalize(abs));
    }));
  }
  return unique(out);
}

function flags(text: string, folder: (flag: string) => string | null): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(INCLUDE_FLAG)) {
    const flag = (m[1] ?? "").replace(/^["']|["']$/g, "");
    const resolved = flag === "" ? null : folder(flag);
    if (resolved !== null) out.push(resolved);
  }
  return unique(out);
}

/** CMake arguments: whitespace-separated, quotes kept together. */
function tokens(args: string): string[] {
  return [...args.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? "").filter((t) => t !== "");
}

/** `dir/rel` normalised, or null when it leaves the repository or is absolute. */
function join(dir: string, rel: string): string | null {
  if (rel.startsWith("/")) return null;
  return inside(dir === "" ? rel : `${dir}/${rel}`);
}

/** A relative path with `.` and `..` resolved ("" for the root), or null above the root. */
function inside(path: string): string | null {
  const normal = normalize(path);
  return normal === ".." || normal.startsWith("../") ? null : normal;
}

function absoluteNormalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}
