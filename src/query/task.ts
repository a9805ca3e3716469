import { isReleaseNotesPath, isTestPath, isVendoredPath } from "../core/languages.js";
import { tokenize } from "../core/tokenize.js";
import type { FrameRef, TaskQuery } from "./types.js";

/**
 * Reads a task text (an issue, a question, a title) into what the signals match: weighted
 * content terms and the explicit references the text makes to code — file paths, dotted module
 * paths, traceback frames, identifiers.
 */

/** English words that carry no signal in an issue text (code words such as `return` are kept). */
const STOPWORDS = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being below between both but by " +
    "can cannot could did do does doing down during each few for from further had has have having he her here hers him his how " +
    "i if in into is it its itself just me more most my no nor not now of off on once only or other our ours out over own same " +
    "she should so some such than that the their them then there these they this those through to too under until up very was we " +
    "were what when where which while who whom why will with would you your yours " +
    "like get got using use used want wants see seems seem think thanks thank please hi hello example following currently " +
    "however instead would could might maybe actually still even though since expected actual result results output issue " +
    "problem work works working way thing something anything everything one two way make makes made also well"
  ).split(" "),
);

/** Extensions of files a task may name. */
const FILE_EXT = "py|pyi|pyx|js|jsx|mjs|cjs|ts|tsx|mts|cts|java|go|rs|kt|c|cc|cpp|h|hpp|rb|php|cs|swift|scala|md|rst|txt|toml|cfg|ini|yaml|yml|json";
// Every pattern below is linear in the text: the path patterns start only at the start of a run of
// their characters or after a slash (a lookbehind), so a failing attempt is not retried from every
// position inside a name; quoted frames are bounded; and the text they scan has no run of
// non-space characters longer than MAX_REF_CHARS (see scannable), which bounds what is left.
const PATH_RE = new RegExp(String.raw`(?<![\w.~@+-])(?:[A-Za-z]:)?[\w.~@+-]*(?:[\\/][\w.@+-]+)*\.(?:${FILE_EXT})\b`, "g");
const PY_FRAME_RE = /File "([^"\n]{1,500})", line (\d{1,9})(?:, in ([\w<>.$]{1,200}))?/g;
/**
 * A frame of IPython's tracebacks before version 8: the file and function on a line of their own
 * (`~/envs/…/site-packages/pkg/mod.py in lookup(self, key)`), a few lines of source below it, the
 * failing one marked with an arrow (`--> 144`). A blank line ends a frame: one printed without
 * source (Cython's) has no line, and never takes the next frame's.
 */
const IPYTHON_FRAME_RE = /^[ \t]*((?:[A-Za-z]:)?[^\s"<>]{1,500}\.pyx?) in ([\w<>.$]{1,200})(?=[(\s])[^\n]*\n(?:[ \t]*\S[^\n]*\n){0,12}?[ \t]*-+> ?(\d{1,9})\b/gm;
const LINE_REF_RE = new RegExp(String.raw`(?<![\w.~@+-])((?:[A-Za-z]:)?[\w.~@+/\\-]*\.(?:${FILE_EXT})):(\d{1,9})(?::\d+)?`, "g");
const JS_FRAME_RE = /at (?:([\w$.<>]+) )?\(?((?:[A-Za-z]:)?[^\s():]+):(\d{1,9}):\d+\)?/g;
/** A JVM frame: `at [module/]com.acme.Cart$Line.add(Cart.java:42)`; the package names the folders. */
const JVM_FRAME_RE = /\bat\s+(?:[\w.$-]{1,200}\/)?((?:[\w$]{1,200}\.){1,40})([\w$<>]{1,200})\(([\w$]{1,200}\.(?:java|kt|scala|groovy)):(\d{1,9})\)/g;
const DOTTED_RE = /\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b/g;
/** Longer runs of non-space characters are data (base64, minified code, a pasted blob), never a reference to code. */
const MAX_REF_CHARS = 512;
/** Longer lines are no package listing. */
const MAX_PACKAGE_LINE = 200;
const BACKTICK_RE = /`{1,3}([^`\n]{1,200})`{1,3}/g;
const IDENT_RE = /\b[A-Za-z_$][\w$]*\b/g;
const CALL_RE = /\b([A-Za-z_$][\w$]*)\s*\(/g;

/** Terms of the first line (the title of an issue) weigh this many times more... */
const TITLE_WEIGHT = 2;
/** ...when it is a title, not the start of a pasted log. */
const MAX_TITLE = 200;

/** Words that look dotted but are prose or URLs. */
const NOT_DOTTED = /^(?:e\.g|i\.e|etc|vs|www\.|https?|[\d.]+$)/i;
const TEST_WORDS = /\b(?:unit ?tests?|test (?:file|case|suite|helper|fixture|runner)s?|conftest|fixtures?|flaky)\b/i;
const DOC_WORDS = /\b(?:documentation|docs|readme|changelog|tutorial|typo)\b/i;
const VENDOR_WORDS = /\b(?:vendor(?:ed|ing)?|third[ _-]party|bundled (?:copy|version))\b/i;

/** A line of a package listing: `name  1.2.3` (pip list, conda list, version tables). */
const PACKAGE_LINE = /^\s*[\w.-]+(?:\s+|==)v?\d+(?:\.\w+)+\S*(?:\s+\S+)?\s*$/;
/** A `key: value` line of a version report (`numpy: 1.18.5`, `OS: Darwin`, `netCDF4: None`). */
const REPORT_LINE = /^\s*[\w.-]{1,40}\s*:\s+(\S.{0,100}?)\s*$/;
/** A report's value that is a version or says there is none. */
const VERSION_VALUE = /^(?:v?\d+(?:\.\w+)+\S*|none|null|unknown|n\/a|not installed)(?:\s|$)/i;
/** A version report is this many `key: value` lines or more (a line between them, `[Clang 10.0.0 ]`, allowed)... */
const MIN_REPORT_LINES = 8;
/** ...of which at least this share give a version or none. */
const MIN_VERSION_SHARE = 0.5;

/**
 * The text without pasted environment dumps — package listings such as `pip list`, and version
 * reports such as `xr.show_versions()`, `pd.show_versions()`, `sklearn.show_versions()` — whose
 * dozens of package names match the project's config files, changelogs and version utilities,
 * not its code.
 */
function withoutEnvironmentDumps(text: string): string {
  const lines = text.split("\n");
  const drop = new Uint8Array(lines.length);
  lines.forEach((line, i) => {
    if (line.length <= MAX_PACKAGE_LINE && PACKAGE_LINE.test(line)) drop[i] = 1;
  });
  // Runs of `key: value` lines; blank lines and one other line (a wrapped value) between two of
  // them stay in the run, two other lines in a row end it.
  let start = -1;
  let last = -1;
  let entries = 0;
  let versions = 0;
  let strays = 0;
  const close = (): void => {
    if (start >= 0 && entries >= MIN_REPORT_LINES && versions >= MIN_VERSION_SHARE * entries) drop.fill(1, start, last + 1);
    start = -1;
    entries = versions = strays = 0;
  };
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const entry = line.length <= MAX_PACKAGE_LINE ? REPORT_LINE.exec(line) : null;
    if (!entry) {
      if (start >= 0 && ++strays > 1) close();
      return;
    }
    if (start < 0) start = i;
    entries++;
    if (VERSION_VALUE.test(entry[1]!)) versions++;
    last = i;
    strays = 0;
  });
  close();
  if (!drop.includes(1)) return text;
  return lines.filter((_, i) => !drop[i]).join("\n");
}


/**
 * Whether a path is documentation or configuration rather than code: doc folders, markdown,
 * reStructuredText, plain text, and config and data files (`setup.cfg`, `tox.ini`, YAML, JSON,
 * TOML, XML such as Maven's `pom.xml`), and release notes. They match an issue's words (version
 * lists, dependency names, changelogs) without holding its fix.
 */
export function isDocPath(path: string): boolean {
  const lower = path.toLowerCase();
  return /(?:^|\/)(?:docs?|documentation|examples?)\//.test(lower) || /\.(?:md|mdx|rst|txt|adoc|cfg|ini|toml|ya?ml|json|xml)$/.test(lower) || isReleaseNotesPath(path);
}

/** Parses a task text. */
export function parseTask(text: string): TaskQuery {
  const scan = scannable(text);
  const frames = findFrames(scan);
  // A frame's file written again (a JVM frame's `(Cart.java:42)`) is that frame, not another path.
  const framePaths = new Set(frames.flatMap((f) => (f.jvm ? [f.path, f.path.slice(f.path.lastIndexOf("/") + 1)] : [trimPath(f.path)])));
  const paths = unique([...scan.matchAll(PATH_RE)].map((m) => trimPath(m[0])).filter((p) => p.length > 0 && !framePaths.has(p)));
  const pathSet = new Set(paths);

  const dotted = unique(
    [...scan.matchAll(DOTTED_RE)]
      .map((m) => m[0])
      .filter((d) => !NOT_DOTTED.test(d) && !pathSet.has(d) && !/\.(?:com|org|net|io|html?)$/i.test(d) && !isFileName(d)),
  );

  const identifiers = new Set<string>();
  for (const m of scan.matchAll(BACKTICK_RE)) {
    for (const id of m[1]!.matchAll(IDENT_RE)) if (id[0].length > 2) identifiers.add(id[0]);
  }
  for (const d of dotted) for (const part of d.split(".")) if (looksLikeCode(part) || /^[A-Z]/.test(part)) identifiers.add(part);
  // Names called in a snippet say which APIs are involved, but a snippet is as often the code to
  // add as the code that fails: they are code words (the exact-name signal), not references.
  const codeWords = new Set(identifiers);
  for (const m of scan.matchAll(CALL_RE)) if (m[1]!.length > 2) codeWords.add(m[1]!);
  for (const m of scan.matchAll(IDENT_RE)) if (looksLikeCode(m[0])) codeWords.add(m[0]);

  const counts = new Map<string, number>();
  for (const token of tokenize(withoutEnvironmentDumps(text))) {
    if (STOPWORDS.has(token) || /^\d+$/.test(token)) continue;
    counts.set(token, (counts.get(token) ?? 0) + 1);
  }
  // Repetition says "this matters", but sublinearly: a pasted log repeats a word fifty times.
  const terms = new Map<string, number>();
  for (const [term, n] of counts) terms.set(term, 1 + Math.log(n));
  // An issue's title says in a line what the rest says at length (and what pasted logs drown).
  const title = text.trimStart().split("\n", 1)[0]!;
  if (title.length <= MAX_TITLE) for (const term of new Set(tokenize(title))) if (terms.has(term)) terms.set(term, terms.get(term)! * TITLE_WEIGHT);

  return {
    text,
    terms,
    paths,
    dotted,
    frames,
    identifiers: [...identifiers].filter((id) => !STOPWORDS.has(id.toLowerCase())),
    codeWords: [...codeWords].filter((id) => !STOPWORDS.has(id.toLowerCase())),
    ...scope(text, paths, (written) => [written]),
  };
}

/**
 * The task as it reads in one repository: a path it writes counts for what the task is about
 * (tests, docs, vendored code) only where it also names files of the repository, and all of them
 * of that kind. A user's own repro file (`test_module_1.py`), another project's path, a virtualenv
 * named `test` (`~/.virtualenvs/test/…/site-packages/pkg/x.py`) or a bare `index.rst` that the
 * repository has among its test fixtures and its docs says nothing about them; nor does a user's
 * `a/b.py` that only the repository's test fixtures happen to be named like.
 */
export function withinRepository(task: TaskQuery, resolve: (written: string) => readonly string[]): TaskQuery {
  return { ...task, ...scope(task.text, task.paths, resolve) };
}

/**
 * What a task is about: its words say so, or a path it writes is of that kind and names only such
 * files. A test file the task asks to add, not in the repository yet, takes the words ("a unit test").
 */
function scope(text: string, paths: readonly string[], resolve: (written: string) => readonly string[]): Pick<TaskQuery, "aboutTests" | "aboutDocs" | "aboutVendored"> {
  const names = (kind: (path: string) => boolean): boolean =>
    paths.some((written) => {
      if (!kind(written)) return false;
      const files = resolve(written);
      return files.length > 0 && files.every(kind);
    });
  // The words count outside the paths: `/home/me/app/conftest.py` is a path, decided as one.
  const words = scannable(text).replace(PATH_RE, " ");
  return {
    aboutTests: TEST_WORDS.test(words) || names(isTestPath),
    aboutDocs: DOC_WORDS.test(words) || names(isDocPath),
    aboutVendored: VENDOR_WORDS.test(words) || names(isVendoredPath),
  };
}

/** The text with every run of non-space characters longer than {@link MAX_REF_CHARS} blanked out. */
function scannable(text: string): string {
  let long = false;
  const runs = /\S+/g;
  for (let m = runs.exec(text); m !== null && !long; m = runs.exec(text)) long = m[0].length > MAX_REF_CHARS;
  return long ? text.replace(/\S+/g, (run) => (run.length > MAX_REF_CHARS ? " " : run)) : text;
}

/** A `file:line` mention this close after a frame naming the same file is that frame again. */
const FRAME_ECHO_CHARS = 300;

function findFrames(text: string): FrameRef[] {
  type Found = Omit<FrameRef, "depth"> & { at: number };
  const frames: Found[] = [];
  for (const m of text.matchAll(PY_FRAME_RE)) frames.push({ path: m[1]!, line: Number(m[2]), name: m[3] ?? "", at: m.index, python: true });
  for (const m of text.matchAll(IPYTHON_FRAME_RE)) frames.push({ path: m[1]!, line: Number(m[3]), name: m[2]!, at: m.index, python: true });
  for (const m of text.matchAll(JS_FRAME_RE)) {
    if (isFileName(m[2]!)) frames.push({ path: m[2]!, line: Number(m[3]), name: m[1] ?? "", at: m.index });
  }
  for (const m of text.matchAll(JVM_FRAME_RE)) frames.push({ ...jvmFrame(m[1]!.slice(0, -1).split("."), m[2]!, m[3]!), line: Number(m[4]), at: m.index, jvm: true });
  frames.sort((a, b) => a.at - b.at);
  // The mentions come in text order: a window of what was found in the last FRAME_ECHO_CHARS
  // characters keeps this linear (checking every earlier frame was quadratic in long logs).
  const found = [...frames];
  const recent: Found[] = [];
  let next = 0;
  for (const m of text.matchAll(LINE_REF_RE)) {
    while (next < frames.length && frames[next]!.at <= m.index) recent.push(frames[next++]!);
    while (recent.length > 0 && recent[0]!.at + FRAME_ECHO_CHARS <= m.index) recent.shift();
    if (!recent.some((f) => f.path.endsWith(m[1]!))) {
      const mention = { path: trimPath(m[1]!), line: Number(m[2]), name: "", at: m.index };
      found.push(mention);
      recent.push(mention);
    }
  }
  found.sort((a, b) => a.at - b.at);
  // Python (its tracebacks and pytest's) prints the innermost frame last; the JVM, JavaScript,
  // Go, Rust backtraces, sanitizers and compilers print it (or the first error) first.
  // A Python traceback's frames (`.pyx`, templates and `<stdin>` included) and `.py` mentions
  // (pytest's `x.py:12: in f`) go the Python way.
  const isPython = (f: Found): boolean => f.python === true || PYTHON_FILE.test(f.path);
  const python = found.filter(isPython);
  const other = found.filter((f) => !isPython(f));
  const depth = new Map<Found, number>();
  python.forEach((f, i) => depth.set(f, (i + 1) / python.length));
  other.forEach((f, i) => depth.set(f, (other.length - i) / other.length));
  return found.map((f) => ({ path: f.path, line: f.line, name: f.name, depth: depth.get(f)!, ...(f.jvm ? { jvm: true } : {}), ...(isPython(f) ? { python: true } : {}) }));
}

const PYTHON_FILE = /\.pyi?$/;

/** A frame as evidence names it: `cart.py:12 in checkout` (the line left out when unknown). */
export function frameLabel(frame: FrameRef): string {
  return `${frame.path.split(/[\\/]/).pop()}${frame.line > 0 ? `:${frame.line}` : ""}${frame.name ? ` in ${frame.name}` : ""}`;
}

/**
 * A JVM frame's file as a repository path: the package's folders and the file name
 * (`com.acme.Cart$Line.add` in `Cart.java` → `com/acme/Cart.java`), and its function as
 * `Line.add`. The package ends before the part that names the file's class, or else (Kotlin's
 * `CartKt`, a file named unlike its class) before the first capitalised part.
 */
function jvmFrame(qualified: string[], method: string, file: string): { path: string; name: string } {
  const stem = file.slice(0, file.lastIndexOf("."));
  let classAt = qualified.findIndex((part) => part.split("$")[0] === stem);
  if (classAt < 0) classAt = qualified.findIndex((part) => /^[A-Z]/.test(part));
  if (classAt < 0) classAt = qualified.length;
  const owner = qualified[qualified.length - 1]?.split("$").pop();
  return { path: [...qualified.slice(0, classAt), file].join("/"), name: owner && classAt < qualified.length ? `${owner}.${method}` : method };
}

/** `snake_case`, `camelCase`, `PascalCase` with an inner capital, `__dunder__`: written as code. */
function looksLikeCode(word: string): boolean {
  if (word.length < 3) return false;
  if (/[a-z0-9]_[a-z0-9]/i.test(word) || /^__\w+__$/.test(word)) return true;
  return /[a-z][A-Z]/.test(word) || /^[A-Z][a-z0-9]+[A-Z]/.test(word);
}

const FILE_NAME_RE = new RegExp(String.raw`\.(?:${FILE_EXT})$`);

function isFileName(word: string): boolean {
  return FILE_NAME_RE.test(word);
}

function trimPath(path: string): string {
  return path.replace(/\\/g, "/").replace(/^[./]+(?=[\w])/, (m) => (m.startsWith("/") ? "/" : ""));
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}
