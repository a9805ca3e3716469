import type { UrlPart } from "../../../core/types.js";

/** Constants longer than this are not URLs worth keeping. */
const MAX_STRING = 512;
const MAX_PARTS = 32;

/** A constant worth keeping for URLs: short, and a path, a URL or a piece of one. */
export function isUrlText(text: string): boolean {
  return text.length <= MAX_STRING && /^(\/|https?:\/\/|[\w.-]*\/)/.test(text);
}

/** A name or a dotted name is a reference; anything else is computed. */
export function refOrDyn(expr: string): UrlPart {
  const e = expr.trim();
  return /^[A-Za-z_$][\w$]*((\.|::)[A-Za-z_$][\w$]*)*$/.test(e) ? { ref: e } : { dyn: true };
}

/** Literal text and `${expr}` (or `{expr}`) pieces: a name or a dotted name is a reference, the rest is computed. */
export function templateParts(body: string, hole: RegExp): UrlPart[] {
  const pieces = body.split(new RegExp(hole.source, "g"));
  const parts: UrlPart[] = [];
  pieces.forEach((piece, i) => {
    if (i % 2 === 0) {
      if (piece !== "") parts.push(piece);
    } else parts.push(refOrDyn(piece));
  });
  return clipParts(parts);
}

/**
 * A format string with its arguments (`fmt.Sprintf("%s/users/%d", base, id)`,
 * `format!("{}/users/{id}", base)`, `String.format("/users/%s", id)`): each hole is the
 * argument it takes, or the name written in it.
 */
export function formatParts(format: string, args: ReadonlyArray<readonly UrlPart[]>, hole: RegExp): UrlPart[] {
  const parts: UrlPart[] = [];
  let next = 0;
  let at = 0;
  for (const m of format.matchAll(new RegExp(hole.source, "g"))) {
    if (m.index! > at) parts.push(format.slice(at, m.index));
    const named = m[1]?.replace(/:.*$/, "");
    if (named) parts.push(refOrDyn(named));
    else parts.push(...(args[next++] ?? [{ dyn: true as const }]));
    at = m.index! + m[0].length;
  }
  if (at < format.length) parts.push(format.slice(at));
  return clipParts(parts);
}

export function clipParts(parts: UrlPart[]): UrlPart[] {
  return parts.slice(0, MAX_PARTS);
}

/** Whether parts may start a URL: literal text, or a name that reads as one (`baseURL`, `API_HOST`, `cfg.Endpoint`), not any variable (`ctx`, `key`). */
export function urlStart(url: readonly UrlPart[]): boolean {
  const first = url[0];
  if (typeof first === "string") return true;
  return first !== undefined && "ref" in first && /url|uri|endpoint|base|host|api|server|addr|root|^[A-Z][A-Z0-9_]*$/i.test(first.ref.replace(/^.*[.:]/, "")) && !/^(ctx|key|id|k|v|i|name)$/i.test(first.ref);
}
