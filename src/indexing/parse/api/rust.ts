import type { ApiFacts, UrlPart } from "../../../core/types.js";
import type { TSNode } from "../grammars.js";
import { argsOf, cap, methodName, plusParts, type Matches } from "./tree.js";
import { formatParts, isUrlText, refOrDyn, urlStart } from "./urls.js";

/**
 * Rust: axum (`Router::new().route("/x", get(h).post(h2))`, `nest`, `merge`) and actix-web
 * (`#[get("/x")]` on handlers, `web::scope("/api").service(h)`, `.route("/x", web::get().to(h))`,
 * `web::resource("/x").route(…)`, `configure(f)` with `fn f(cfg: &mut web::ServiceConfig)`);
 * requests through reqwest (`client.get(url)`, `reqwest::get(url)`, `client.request(Method::POST,
 * url)`), URLs built with `format!`. A router is the `let` it is bound to or the function that
 * builds it; `const` and `static` strings are constants.
 */
export const MENTIONS_RUST = /\b(axum|actix_web|reqwest)\b|#\[(get|post|put|patch|delete|route)\(|\b(const|static)\s+\w+\s*:\s*&(?:'static\s+)?str\s*=\s*"(\/|https?:)/;

const AXUM_METHODS = /^(get|post|put|patch|delete|head|options|any)$/;

export function rust(facts: ApiFacts, matches: Matches, lineOf: (offset: number) => number): void {
  const routers = new Set<string>();
  const routerOf = (obj: TSNode): string => {
    const root = chainRoot(obj);
    const callee = root.type === "call_expression" ? root.childForFieldName("function")?.text ?? "" : "";
    if (/(^|::)scope$/.test(callee)) {
      // actix `web::scope("/api")`: a router with its prefix, under the router it is a service of.
      const name = `scope@${root.startIndex}`;
      if (!routers.has(name)) {
        routers.add(name);
        const prefix = argsOf(root.childForFieldName("arguments") ?? root)[0];
        facts.mounts.push({ parent: outerRouter(root) ?? "app", prefix: prefix ? partsOf(prefix) : null, child: name, line: lineOf(root.startIndex) });
      }
      return name;
    }
    if (root.type === "identifier" && isConfigParam(root)) return enclosingFn(root) ?? "app";
    if (root.type === "identifier" && routers.has(root.text)) return root.text;
    // `Router::new()…` (or `App::new()…`): the let it is bound to, or the function that builds it.
    return holder(chainTop(obj)) ?? "app";
  };
  /** The router whose `.service(…)` an expression is an argument of. */
  const outerRouter = (node: TSNode): string | null => {
    const top = chainTop(node);
    const call = top.parent?.type === "arguments" ? top.parent.parent : null;
    const fn = call?.type === "call_expression" ? call.childForFieldName("function") : null;
    return fn?.type === "field_expression" && /^(service|configure)$/.test(fn.childForFieldName("field")?.text ?? "") ? routerOf(fn.childForFieldName("value")!) : null;
  };
  for (const m of matches) {
    const decl = cap(m, "decl");
    if (decl) {
      const value = stringOf(cap(m, "value")!);
      if (value !== undefined && isUrlText(value)) facts.strings[cap(m, "var")!.text] = value;
    }
    const bound = cap(m, "let");
    if (bound && /^(Router|App|axum::Router)::new$/.test(chainRoot(cap(m, "value")!).childForFieldName("function")?.text ?? "")) routers.add(cap(m, "var")!.text);
  }
  for (const m of matches) {
    const attr = cap(m, "aroute");
    if (attr) {
      actixAttribute(facts, attr, cap(m, "attr")!.text, cap(m, "targs")!, lineOf);
      continue;
    }
    const call = cap(m, "mcall") ?? cap(m, "fcall");
    if (!call) continue;
    const args = argsOf(cap(m, "args")!);
    const line = lineOf(call.startIndex);
    if (cap(m, "fcall")) {
      if (args[0] && isUrlLike(args[0]) && urlStart(partsOf(args[0]))) facts.calls.push({ client: "reqwest", method: "GET", url: partsOf(args[0]), line });
      continue;
    }
    const obj = cap(m, "obj")!;
    const prop = cap(m, "prop")!.text;
    if (prop === "route") {
      const router = routerOf(obj);
      if (args.length === 2 && isUrlLike(args[0]!)) {
        // actix `.route("/x", web::get().to(h))`, axum `.route("/x", get(h).post(h2))`.
        for (const { method, handler } of handlersOf(args[1]!)) facts.routes.push({ router, method, path: partsOf(args[0]!), line, handler });
        routers.add(router);
      } else if (args.length === 1) {
        // actix `web::resource("/x").route(web::get().to(h))`.
        const root = chainRoot(obj);
        const path = root.type === "call_expression" && /(^|::)resource$/.test(root.childForFieldName("function")?.text ?? "") ? argsOf(root.childForFieldName("arguments") ?? root)[0] : undefined;
        if (!path || !isUrlLike(path)) continue;
        const parent = outerRouter(root) ?? "app";
        for (const { method, handler } of handlersOf(args[0]!)) facts.routes.push({ router: parent, method, path: partsOf(path), line, handler });
        routers.add(parent);
      }
      continue;
    }
    if (prop === "nest" || prop === "merge") {
      const child = prop === "nest" ? args[1] : args[0];
      const prefix = prop === "nest" ? args[0] : undefined;
      const name = child?.type === "call_expression" ? child.childForFieldName("function")?.text : child?.type === "identifier" || child?.type === "scoped_identifier" ? child.text : undefined;
      if (name && (!prefix || isUrlLike(prefix))) {
        const router = routerOf(obj);
        routers.add(router);
        facts.mounts.push({ parent: router, prefix: prefix ? partsOf(prefix) : null, child: name, line });
      }
      continue;
    }
    if (prop === "service" || prop === "configure") {
      // `.service(handler)` with a `#[get]` route; `.configure(users::config)`.
      const child = args[0];
      if (child?.type === "identifier" || child?.type === "scoped_identifier") {
        const router = routerOf(obj);
        routers.add(router);
        facts.mounts.push({ parent: router, prefix: null, child: child.text, line });
      }
      continue;
    }
    // reqwest: `client.get(url)`, `client.request(Method::POST, url)` (a map's `clients.get(key)` is not one).
    if (!/(^|[.:])(client|http_client|http|reqwest)$|Client::new\(\)|Client::builder\(\)/i.test(obj.text) && !/client$/i.test(obj.text)) continue;
    const method = prop === "request" ? (args[0] ? methodName(args[0].text) ?? null : null) : methodName(prop) ?? null;
    const url = prop === "request" ? args[1] : args[0];
    if (!url || !isUrlLike(url)) continue;
    const parts = partsOf(url);
    if (!urlStart(parts)) continue;
    facts.calls.push({ client: obj.text.slice(0, 80), method, url: parts, line });
  }
  facts.routers = [...new Set([...facts.routers, ...routers])];
}

/** `#[get("/x")] async fn h(…)`: a route of its own router (the handler), mounted by `.service(h)`. */
function actixAttribute(facts: ApiFacts, item: TSNode, attr: string, tokens: TSNode, lineOf: (offset: number) => number): void {
  let fn: TSNode | null = item;
  for (let i = 0; fn && fn.type !== "function_item" && i < 8; i++) fn = fn.nextNamedSibling;
  const name = fn?.childForFieldName("name")?.text;
  const path = tokens.namedChildren.find((n) => n.type === "string_literal");
  if (!name || !path) return;
  const methods = attr === "route" ? [...tokens.text.matchAll(/method\s*=\s*"([A-Za-z]+)"/g)].map((x) => x[1]!.toUpperCase()) : [methodName(attr)!];
  for (const method of methods.length > 0 ? methods : ["*"]) facts.routes.push({ router: name, method, path: [stringOf(path)!], line: lineOf(item.startIndex), handler: name });
  facts.routers.push(name);
}

/** The methods and handlers of `get(h).post(h2)` (axum) or `web::get().to(h)` (actix). */
function handlersOf(expr: TSNode): Array<{ method: string; handler: string }> {
  const found: Array<{ method: string; handler: string }> = [];
  let actixHandler = "";
  let n: TSNode | null = expr;
  for (let depth = 0; n?.type === "call_expression" && depth < 16; depth++) {
    const fn: TSNode = n.childForFieldName("function")!;
    const args = argsOf(n.childForFieldName("arguments") ?? n);
    const name = fn.type === "field_expression" ? fn.childForFieldName("field")!.text : fn.text.replace(/^.*::/, "");
    if (name === "to") actixHandler = args[0]?.text ?? "";
    else if (AXUM_METHODS.test(name)) found.push({ method: name === "any" ? "*" : methodName(name)!, handler: args[0]?.text ?? "" });
    else if (name === "method" && args[0] && methodName(args[0].text)) found.push({ method: methodName(args[0].text)!, handler: "" });
    n = fn.type === "field_expression" ? fn.childForFieldName("value") : null;
  }
  return found.reverse().map((f) => ({ ...f, handler: f.handler || actixHandler }));
}

/** The start of a method chain: `Router::new()` in `Router::new().route(…).nest(…)`. */
function chainRoot(node: TSNode): TSNode {
  let n = node;
  for (let depth = 0; depth < 64 && n.type === "call_expression"; depth++) {
    const fn = n.childForFieldName("function");
    if (fn?.type !== "field_expression") return n;
    n = fn.childForFieldName("value")!;
  }
  return n;
}

/** The whole chain an expression is the start or a middle of. */
function chainTop(node: TSNode): TSNode {
  let n = node;
  for (let depth = 0; depth < 64 && n.parent && (n.parent.type === "field_expression" || (n.parent.type === "call_expression" && n.parent.childForFieldName("function")?.id === n.id)); depth++) n = n.parent;
  return n;
}

function holder(top: TSNode): string | null {
  const parent = top.parent;
  if (parent?.type === "let_declaration") return parent.childForFieldName("pattern")?.text ?? null;
  return enclosingFn(top);
}

function enclosingFn(node: TSNode): string | null {
  for (let n = node.parent, depth = 0; n && depth < 64; n = n.parent, depth++) if (n.type === "function_item") return n.childForFieldName("name")?.text ?? null;
  return null;
}

/** `cfg` in `fn config(cfg: &mut web::ServiceConfig)`. */
function isConfigParam(id: TSNode): boolean {
  for (let n = id.parent, depth = 0; n && depth < 64; n = n.parent, depth++) {
    if (n.type !== "function_item") continue;
    return (n.childForFieldName("parameters")?.namedChildren ?? []).some((p) => p.childForFieldName("pattern")?.text === id.text && /ServiceConfig/.test(p.childForFieldName("type")?.text ?? ""));
  }
  return false;
}

function isUrlLike(node: TSNode): boolean {
  return /^(string_literal|raw_string_literal|identifier|field_expression|scoped_identifier|reference_expression|binary_expression)$/.test(node.type) || (node.type === "macro_invocation" && node.childForFieldName("macro")?.text === "format");
}

function stringOf(node: TSNode): string | undefined {
  if (node.type === "string_literal") return node.text.slice(1, -1);
  if (node.type === "raw_string_literal") return node.text.replace(/^r#*"/, "").replace(/"#*$/, "");
  return undefined;
}

/** A URL expression as parts: literals, `format!` with its arguments, `&x`, names and constants, `+`. */
function partsOf(node: TSNode): UrlPart[] {
  const text = stringOf(node);
  if (text !== undefined) return [text];
  switch (node.type) {
    case "reference_expression":
      return node.childForFieldName("value") ? partsOf(node.childForFieldName("value")!) : [{ dyn: true }];
    case "identifier":
    case "field_expression":
    case "scoped_identifier":
      return [{ ref: node.text }];
    case "binary_expression":
      return plusParts(node, partsOf);
    case "macro_invocation": {
      const tokens = node.namedChildren.find((n) => n.type === "token_tree");
      const format = tokens?.namedChildren[0];
      const body = format && stringOf(format);
      if (!tokens || body === undefined) return [{ dyn: true }];
      // The arguments after the format string, split at the commas of the token tree.
      const rest = tokens.text.slice(format!.endIndex - tokens.startIndex).replace(/^\s*,/, "").replace(/\)\s*$/, "");
      const args = rest.split(",").map((a) => a.trim()).filter((a) => a !== "").map((a) => [refOrDyn(a.replace(/^&/, ""))]);
      return formatParts(body.replace(/\{\{|\}\}/g, ""), args, /\{([A-Za-z_][\w.]*)?(?::[^}]*)?\}/);
    }
    default:
      return [{ dyn: true }];
  }
}
