/** The command-line options of a benchmark script: `--name value` pairs. */
export function benchArgs(usage: string, required: string[]): (name: string, fallback?: string) => string | undefined {
  const args = process.argv.slice(2);
  const opt = (name: string, fallback?: string): string | undefined => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : fallback;
  };
  if (required.some((name) => opt(name) === undefined)) {
    process.stderr.write(`usage: ${usage}\n`);
    process.exit(2);
  }
  return opt;
}
