/**
 * C++ names as written, read without their template arguments: `a::Foo<b::C>::get` is the scope
 * `a::Foo` and the name `get`, and `operator<` stays one name. Shared by extraction (qualified
 * names) and resolution (scopes of calls).
 */

/** `a::Foo<std::map<int, x::Y>>::get<T>` -> `a::Foo::get`: every balanced `<…>` group dropped, `operator<` kept. */
export function withoutTemplateArgs(name: string): string {
  let out = "";
  let depth = 0;
  for (let i = 0; i < name.length; i++) {
    const ch = name[i]!;
    // `operator<`, `operator<<=`, `operator->`: the angle brackets are the name.
    if (depth === 0 && name.startsWith("operator", i)) {
      const op = /^operator\s*(?:<<=|>>=|<=>|<<|>>|<=|>=|->\*?|[<>])?/.exec(name.slice(i))![0];
      out += op;
      i += op.length - 1;
      continue;
    }
    if (ch === "<") depth++;
    else if (ch === ">" && depth > 0) depth--;
    else if (depth === 0) out += ch;
  }
  return out.trim();
}

/** The `::` segments of a C++ name, template arguments dropped: `a::Foo<b::C>::get` -> `a`, `Foo`, `get`. */
export function scopeSegments(name: string): string[] {
  return withoutTemplateArgs(name)
    .split("::")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** The last segment of a C++ name: `a::b::Foo<T>` -> `Foo`. */
export function lastSegment(name: string): string {
  const segments = scopeSegments(name);
  return segments[segments.length - 1] ?? "";
}
