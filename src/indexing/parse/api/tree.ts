import type { ApiFacts, UrlPart } from "../../../core/types.js";
import type { TSNode, TSQuery } from "../grammars.js";
import { clipParts } from "./urls.js";

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
  if (text.length > 64) return undefined;
  const last = /(?:Method)?([A-Za-z]+)$/.exec(text.replace(/^.*[.:]/, ""))?.[1]?.toLowerCase();
  return last && /^(get|post|put|patch|delete|head|options)$/.test(last) ? last.toUpperCase() : undefined;
}

/** Whether facts say nothing (URL constants alone say something: other files build URLs from them). */
export function isEmpty(facts: ApiFacts): boolean {
  return facts.routers.length + facts.routes.length + facts.mounts.length + facts.calls.length + facts.wrappers.length + Object.keys(facts.instances).length + Object.keys(facts.strings).length === 0 && facts.global === undefined;
}

/** `a + b` as the parts of each side, in order (anything but `+` is computed). */
export function plusParts(node: TSNode, partsOf: (n: TSNode) => UrlPart[]): UrlPart[] {
  const left = node.childForFieldName("left");
  const right = node.childForFieldName("right");
  return left && right && node.childForFieldName("operator")?.text === "+" ? clipParts([...partsOf(left), ...partsOf(right)]) : [{ dyn: true }];
}
