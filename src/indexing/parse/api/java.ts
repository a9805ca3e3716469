import type { ApiFacts, UrlPart } from "../../../core/types.js";
import type { TSNode } from "../grammars.js";
import { argsOf, cap, methodName, plusParts, type Matches } from "./tree.js";
import { clipParts, formatParts, isUrlText, templateParts } from "./urls.js";

/**
 * Java: Spring controllers (`@RequestMapping` on the class, `@GetMapping`… or
 * `@RequestMapping(method = RequestMethod.X)` on methods, several paths each); OpenFeign
 * interfaces (the same annotations under `@FeignClient(url, path)` are requests, not routes);
 * requests through `RestTemplate` (`getForObject`, `exchange(url, HttpMethod.X, …)`…) and
 * `WebClient` / `RestClient` (`.get().uri(url)`); `static final String` constants, known as
 * `NAME` in their class and `Class.NAME` elsewhere.
 */
export const MENTIONS_JAVA = /@(Rest)?Controller\b|@(Request|Get|Post|Put|Delete|Patch)Mapping\b|@FeignClient\b|\b(RestTemplate|WebClient|RestClient)\b|\bfinal\s+String\s+\w+\s*=\s*"(\/|https?:)/;

const MAPPINGS = /^(Request|Get|Post|Put|Delete|Patch)Mapping$/;
const REST_TEMPLATE = /^(get|post|patch)For(Object|Entity|Location)$/;

export function java(facts: ApiFacts, matches: Matches, lineOf: (offset: number) => number): void {
  for (const m of matches) {
    const type = cap(m, "type");
    if (type) springType(facts, type, lineOf);
    const constant = cap(m, "const");
    if (constant) {
      const name = cap(m, "var")!.text;
      const value = stringOf(cap(m, "value")!);
      const owner = enclosingType(constant);
      if (value !== undefined && isUrlText(value)) {
        facts.strings[name] = value;
        if (owner) facts.strings[`${owner}.${name}`] = value;
      }
    }
    const call = cap(m, "call");
    if (call) javaRequest(facts, cap(m, "name")!.text, cap(m, "obj")!, argsOf(cap(m, "args")!), lineOf(call.startIndex));
  }
}

/** A Spring controller's routes, or a Feign client's requests. */
function springType(facts: ApiFacts, type: TSNode, lineOf: (offset: number) => number): void {
  const name = type.childForFieldName("name")?.text;
  const body = type.childForFieldName("body");
  if (!name || !body) return;
  const annotations = annotationsOf(type);
  const feign = annotations.find((a) => a.name === "FeignClient");
  const controller = annotations.some((a) => /^(Rest)?Controller$/.test(a.name));
  const mapping = annotations.find((a) => a.name === "RequestMapping");
  if (!feign && !controller && !mapping) return;
  const classPath = mapping ? (paths(mapping)[0] ?? []) : [];
  if (!feign) {
    facts.routers.push(name);
    if (classPath.length > 0) facts.prefixes[name] = classPath;
  }
  for (const member of body.namedChildren) {
    if (member.type !== "method_declaration") continue;
    const method = member.childForFieldName("name")?.text ?? "";
    for (const a of annotationsOf(member)) {
      const kind = MAPPINGS.exec(a.name)?.[1];
      if (!kind) continue;
      const methods = kind === "Request" ? requestMethods(a) : [kind.toUpperCase()];
      const line = lineOf(a.node.startIndex);
      for (const path of paths(a).length > 0 ? paths(a) : [[]]) {
        for (const verb of methods) {
          if (feign) {
            const base = [...(attribute(feign, "url") ? partsOf(attribute(feign, "url")!) : []), ...(attribute(feign, "path") ? partsOf(attribute(feign, "path")!) : [])];
            facts.calls.push({ client: `${name}.${method}`, method: verb, url: clipParts([...base, ...classPath, ...path]), line });
          } else facts.routes.push({ router: name, method: verb, path, line, handler: `${name}.${method}` });
        }
      }
    }
  }
}

/** `rest.getForObject(url, …)`, `rest.exchange(url, HttpMethod.POST, …)`, `client.get().uri(url, …)`. */
function javaRequest(facts: ApiFacts, name: string, obj: TSNode, args: TSNode[], line: number): void {
  if (args.length === 0) return;
  let method: string | null | undefined;
  if (name === "uri") {
    // WebClient / RestClient: the method is the call before `.uri(…)`.
    if (obj.type !== "method_invocation") return;
    const verb = obj.childForFieldName("name")?.text ?? "";
    const verbArgs = argsOf(obj.childForFieldName("arguments") ?? obj);
    method = verb === "method" ? (verbArgs[0] ? methodName(verbArgs[0].text) ?? null : null) : methodName(verb);
    if (method === undefined) return;
  } else if (REST_TEMPLATE.test(name)) method = methodName(name.replace(/For.*$/, ""));
  else if (name === "exchange") method = args[1] ? methodName(args[1].text) ?? null : null;
  // `put` and `delete` are too common a name: only on something that reads as a REST client.
  else if ((name === "put" || name === "delete") && /rest|template/i.test(obj.text)) method = name.toUpperCase();
  else return;
  const url = partsOf(args[0]!);
  if (typeof url[0] === "object" && "dyn" in url[0]) return;
  facts.calls.push({ client: obj.text.slice(0, 80), method: method ?? null, url, line });
}

interface Annotation {
  name: string;
  node: TSNode;
  args: TSNode | null;
}

function annotationsOf(decl: TSNode): Annotation[] {
  const modifiers = decl.namedChildren.find((n) => n.type === "modifiers");
  if (!modifiers) return [];
  return modifiers.namedChildren
    .filter((n) => n.type === "annotation" || n.type === "marker_annotation")
    .map((n) => ({ name: (n.childForFieldName("name")?.text ?? "").replace(/^.*\./, ""), node: n, args: n.childForFieldName("arguments") }));
}

/** An annotation's element by name (`path = "/x"`), or its single value for `value`. */
function attribute(a: Annotation, key: string): TSNode | undefined {
  if (!a.args) return undefined;
  for (const arg of a.args.namedChildren) {
    if (arg.type === "element_value_pair") {
      if (arg.childForFieldName("key")?.text === key) return arg.childForFieldName("value") ?? undefined;
    } else if (key === "value" && arg.type !== "comment") return arg;
  }
  return undefined;
}

/** The paths of a mapping: `value` or `path`, one or an array. */
function paths(a: Annotation): UrlPart[][] {
  const value = attribute(a, "value") ?? attribute(a, "path");
  if (!value) return [];
  const items = value.type === "element_value_array_initializer" ? value.namedChildren : [value];
  return items.map(partsOf);
}

function requestMethods(a: Annotation): string[] {
  const value = attribute(a, "method");
  if (!value) return ["*"];
  const items = value.type === "element_value_array_initializer" ? value.namedChildren : [value];
  const methods = items.map((i) => methodName(i.text)).filter((x): x is string => x !== undefined);
  return methods.length > 0 ? methods : ["*"];
}

function stringOf(node: TSNode): string | undefined {
  return node.type === "string_literal" && !node.text.startsWith('"""') ? node.text.slice(1, -1) : undefined;
}

/** A URL expression as parts: literals (Spring's `${property}` placeholders by name), `+`, names and constants, `String.format`. */
function partsOf(node: TSNode): UrlPart[] {
  switch (node.type) {
    case "string_literal": {
      const text = stringOf(node);
      return text === undefined ? [{ dyn: true }] : templateParts(text, /\$\{([^}]*)\}/);
    }
    case "binary_expression":
      return plusParts(node, partsOf);
    case "identifier":
    case "field_access":
      return [{ ref: node.text }];
    case "method_invocation": {
      const args = argsOf(node.childForFieldName("arguments") ?? node);
      const format = node.childForFieldName("object")?.text === "String" && node.childForFieldName("name")?.text === "format" ? args[0] : undefined;
      if (format?.type === "string_literal") return formatParts(stringOf(format) ?? "", args.slice(1).map(partsOf), /%[-#+ 0,(]{0,4}\d{0,4}(?:\.\d{1,4})?[a-zA-Z]/);
      return [{ dyn: true }];
    }
    default:
      return [{ dyn: true }];
  }
}

function enclosingType(node: TSNode): string | undefined {
  for (let n = node.parent, depth = 0; n && depth < 32; n = n.parent, depth++) {
    if (n.type === "class_declaration" || n.type === "interface_declaration" || n.type === "enum_declaration") return n.childForFieldName("name")?.text;
  }
  return undefined;
}
