import type { ApiFacts, UrlPart } from "../../../core/types.js";
import type { TSNode, TSQuery } from "../grammars.js";

export type Matches = ReturnType<TSQuery["matches"]>;
export type Match = Matches[number];

/** The node captured under `name` in one match. */
export const cap = (m: Match, name: string): TSNode | undefined => m.captures.find((c) => c.name === name)?.node;

/** Arguments of an argument list, comments left out. */
export function argsOf(args: TSNode): TSNode[] {
  return args.namedChildren.filter((a) => a.type !== "comment" && a.type !== "line_comment" && a.type !== "block_comment");
}

export function emptyFacts(): ApiFacts {
  return { routers: [], routes: [], mounts: [], calls: [], wrappers: [], instances: {}, prefixes: {}, strings: {}, exports: {} };
}

/** The HTTP method a framework's or a client's method name stands for (`del` is superagent's). */
export const METHODS: Readonly<Record<string, string>> = { get: "GET", post: "POST", put: "PUT", patch: "PATCH", delete: "DELETE", del: "DELETE", head: "HEAD", options: "OPTIONS", all: "*", any: "*", route: "GET", api_route: "GET", request: "*" };

/** `GET`, `get`, `Get`, `MethodGet`, `HttpMethod.GET`, `Method::GET`, `RequestMethod.GET` as a method, or undefined. */
export function methodName(text: string): string | undefined {
  const last = /(?:Method)?([A-Za-z]+)$/.exec(text.replace(/^.*[.:]/, ""))?.[1]?.toLowerCase();
  return last && /^(get|post|put|patch|delete|head|options)$/.test(last) ? last.toUpperCase() : undefined;
}

const FUNCTIONS = new Set([
  // JavaScript / TypeScript, Python
  "arrow_function", "function_expression", "function_declaration", "function", "method_definition", "function_definition", "generator_function_declaration",
  // Java, Go, Rust
  "method_declaration", "func_literal", "function_item", "closure_expression",
]);

/** The nearest function around `node`, with the name it is known by (`requests.get` for a property of an object). */
export function enclosingFunction(node: TSNode): { node: TSNode; name: string | null } | null {
  let n = node.parent;
  for (let depth = 0; n && depth < 64; depth++, n = n.parent) {
    if (!FUNCTIONS.has(n.type)) continue;
    const own = n.childForFieldName("name")?.text;
    // A method of an object literal is known by the object's name: `apiClient.post`.
    const literal = n.type === "method_definition" && n.parent?.type === "object" && n.parent.parent?.type === "variable_declarator" ? n.parent.parent.childForFieldName("name")?.text : undefined;
    if (own) return { node: n, name: literal ? `${literal}.${own}` : own };
    const holder = n.parent;
    if (holder?.type === "variable_declarator") return { node: n, name: holder.childForFieldName("name")?.text ?? null };
    if (holder?.type === "pair") {
      const key = holder.childForFieldName("key")?.text.replace(/^['"]|['"]$/g, "") ?? "";
      const object = holder.parent;
      const owner = object?.parent?.type === "variable_declarator" ? object.parent.childForFieldName("name")?.text : null;
      return { node: n, name: owner ? `${owner}.${key}` : key };
    }
    return { node: n, name: null };
  }
  return null;
}

/** The names of a function's parameters, in any of the grammars. */
export function paramNames(fn: TSNode): string[] {
  const single = fn.childForFieldName("parameter");
  if (single) return [single.text];
  const params = fn.childForFieldName("parameters");
  if (!params) return [];
  return params.namedChildren
    .flatMap((p) => {
      if (p.type === "identifier") return [p.text];
      const pattern = p.childForFieldName("pattern");
      if (pattern) return [pattern.text];
      // Go declares several at once: `a, b string`.
      const names = p.childrenForFieldName("name");
      return names.length > 0 ? names.map((n) => n.text) : [p.firstNamedChild?.text ?? ""];
    })
    .filter((p) => p !== "");
}

/**
 * A request, or a wrapper: where the URL starts with a parameter of the enclosing function (after
 * names only, a base URL: `ROOT + url`), the function forwards a URL. A parameter after literal
 * text (`/articles/${slug}`) is a path parameter of a request.
 */
export function request(facts: ApiFacts, client: string, method: string | null, url: UrlPart[], call: TSNode, line: number): void {
  const fn = enclosingFunction(call);
  if (fn) {
    const params = paramNames(fn.node);
    const at = url.findIndex((p) => typeof p === "object" && "ref" in p && params.includes(p.ref));
    const before = at > 0 ? url[at - 1]! : null;
    // Forwarded when only names come before it, or text that does not end a segment (`/api${path}`).
    const forwarded = at >= 0 && url.slice(0, at).every((p) => (typeof p === "object" && "ref" in p) || typeof p === "string") && (before === null || typeof before === "object" || !before.endsWith("/"));
    const param = forwarded ? (url[at] as { ref: string }) : null;
    if (param && fn.name) {
      facts.wrappers.push({ name: fn.name, method, url, param: param.ref });
      return;
    }
  }
  facts.calls.push({ client, method, url, line });
}

/** Whether facts say nothing (URL constants alone say something: other files build URLs from them). */
export function isEmpty(facts: ApiFacts): boolean {
  return facts.routers.length + facts.routes.length + facts.mounts.length + facts.calls.length + facts.wrappers.length + Object.keys(facts.instances).length + Object.keys(facts.strings).length === 0 && facts.global === undefined;
}
