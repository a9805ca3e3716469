/** Reading settings from environment variables, one way everywhere. */

/** A variable's value, trimmed; undefined when it is unset or blank. */
export function envText(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value.trim() : undefined;
}

/** Whether a variable turns something on: `1`, `true`, `yes` or `on` (any case). */
export function envFlag(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}
