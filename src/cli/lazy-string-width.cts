/**
 * `string-width` for the CLI's bundle, loaded on first use. yargs and its help layout (cliui,
 * wrap-ansi) each bring a copy, and loading one costs every command about 15 ms, help shown or not:
 * an `Intl.Segmenter` (ICU loads its break rules) and a `v`-flag emoji pattern V8 compiles where the
 * module is loaded. The bundle's build puts this module where they import `string-width`
 * (esbuild's `--alias`), and it requires the package only when yargs first measures text; the
 * bundle runs a required module's code when it is first required. Outside the bundle it is unused.
 */
type StringWidth = (text: string, options?: { ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean }) => number;

let measure: StringWidth | undefined;

function stringWidth(...args: Parameters<StringWidth>): number {
  // The package itself: its own name is this module's, so the build gives it another (`--alias`).
  measure ??= (require("string-width-itself") as { default: StringWidth }).default;
  return measure(...args);
}

export = stringWidth;
