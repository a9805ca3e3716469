import type { ApiFacts, ImportInfo, Language, UrlPart } from "../../core/types.js";
import type { TSNode, TSQuery } from "./grammars.js";

const MAX_CLIENT = 80;
/** Constants longer than this are not URLs worth keeping. */
const MAX_STRING = 512;

/**
 * What a file says about HTTP (see {@link ApiFacts}), read from its tree with one query per
 * language. Only the shapes below are read, as they are written; resolving names across files and
 * matching calls to routes happen later, over the whole index (graph/api-map.ts).
 *
 * - JavaScript / TypeScript: Express, Koa-router, Hono and Fastify style `router.get(path, …)`,
 *   `parent.use(prefix?, child)`; requests through `fetch`, axios (and `axios.create` instances),
 *   superagent, ky, got; functions that forward a parameter to one of these (one level).
 * - Python: FastAPI and Flask decorators (`@router.get`, `@app.route(methods=)`), routers' own
 *   prefixes (`APIRouter(prefix=)`, `Blueprint(url_prefix=)`), `include_router` /
 *   `register_blueprint` prefixes; requests through requests / httpx.
 */
/** Whether a file may say anything about HTTP: the query runs only where it can find something. */
const MENTIONS: Partial<Record<Language, RegExp>> = {
  // A client or framework by name, a router's or app's route, or a method call on a literal URL (a wrapper's call).
  javascript: /\bfetch\(|['"](axios|superagent|superagent-promise|ky|got|express|hono|fastify|koa-router|@koa\/router|@angular\/common\/http)['"]|\b(app|router|api|server)\.(get|post|put|patch|delete|all|use|route)\(|\.(get|post|put|patch|delete|del)\(\s*['"`]/,
  python: /\b(APIRouter|FastAPI|Blueprint|Flask|include_router|register_blueprint|requests|httpx|\.route\()/,
};
MENTIONS.typescript = MENTIONS.javascript;
MENTIONS.tsx = MENTIONS.javascript;

const METHODS: Record<string, string> = { get: "GET", post: "POST", put: "PUT", patch: "PATCH", delete: "DELETE", del: "DELETE", head: "HEAD", options: "OPTIONS", all: "*", route: "GET", api_route: "GET", request: "*" };
const JS_CLIENT_PACKAGES = /^(axios|superagent|superagent-promise|ky|got|node-fetch|cross-fetch|isomorphic-fetch|redaxios)$/;
const JS_ROUTER_MAKERS = /^(express|(express\.)?Router|require\(['"]express['"]\)\.Router|Hono|KoaRouter|fastify|Fastify)$/;
const PY_ROUTER_MAKERS = /^(FastAPI|APIRouter|Flask|Blueprint|(fastapi|flask)\.(FastAPI|APIRouter|Flask|Blueprint))$/;
const PY_CLIENTS = /^(requests|httpx|aiohttp)$/;
const FUNCTIONS = new Set(["arrow_function", "function_expression", "function_declaration", "function", "method_definition", "function_definition", "generator_function_declaration"]);
const MAX_PARTS = 32;

export function mentionsHttp(language: Language, source: string): boolean {
  return MENTIONS[language]?.test(source) ?? false;
}

/** The file's HTTP facts, or undefined when it has none. */
export function extractApiFacts(language: Language, query: TSQuery, root: TSNode, imports: readonly ImportInfo[], lineOf: (offset: number) => number): ApiFacts | undefined {
  const facts: ApiFacts = { routers: [], routes: [], mounts: [], calls: [], wrappers: [], instances: {}, prefixes: {}, strings: {}, exports: {} };
  const matches = query.matches(root);
  if (language === "python") python(facts, matches, imports, lineOf);
  else javascript(facts, matches, imports, lineOf);
  const empty = facts.routers.length + facts.routes.length + facts.mounts.length + facts.calls.length + facts.wrappers.length + Object.keys(facts.instances).length === 0;
  return empty ? undefined : facts;
}

type Matches = ReturnType<TSQuery["matches"]>;
const cap = (m: Matches[number], name: string): TSNode | undefined => m.captures.find((c) => c.name === name)?.node;

function javascript(facts: ApiFacts, matches: Matches, imports: readonly ImportInfo[], lineOf: (offset: number) => number): void {
  const clients = new Set<string>();
  for (const imp of imports) {
    if (!JS_CLIENT_PACKAGES.test(imp.module)) continue;
    if (imp.alias) clients.add(imp.alias);
    for (const n of imp.names) clients.add(n.alias || n.name);
  }
  const routers = new Set<string>();
  const bases = new Map<string, UrlPart[]>();
  // Declarations first: which names are routers, clients and constants.
  for (const m of matches) {
    const decl = cap(m, "decl");
    if (decl) {
      const name = cap(m, "var")!.text;
      const value = cap(m, "value")!;
      if ((value.type === "string" || (value.type === "template_string" && !value.text.includes("${"))) && isUrlText(value.text.slice(1, -1))) facts.strings[name] = value.text.slice(1, -1);
      if (chainRoot(value, routerMaker)) routers.add(name);
      else if (value.type === "call_expression" && mentionsClient(value, clients)) {
        clients.add(name);
        // `axios.create({ baseURL })`: every request of the instance starts with it.
        const config = argsOf(value.childForFieldName("arguments") ?? value)[0];
        const base = config?.type === "object" ? pairValue(config, "baseURL") ?? pairValue(config, "prefixUrl") : undefined;
        if (base && isUrlLike(base)) bases.set(name, urlParts(base));
        facts.instances[name] = bases.get(name) ?? [];
      }
      continue;
    }
    const exported = cap(m, "default") ?? cap(m, "rhs");
    if (exported) {
      if (exported.type === "identifier") facts.exports.default = exported.text;
      else if (chainRoot(exported, routerMaker)) {
        routers.add("default");
        facts.exports.default = "default";
      }
    }
  }
  const routerOf = (node: TSNode): string | null => {
    if (node.type === "identifier") return routers.has(node.text) || node.text === "app" || node.text === "router" ? node.text : null;
    // `this.router` in a class controller.
    if (node.type === "member_expression") return /^this\.(router|app)$/.test(node.text) ? node.text : null;
    if (!chainRoot(node, routerMaker)) return null;
    return holderOf(node);
  };
  for (const m of matches) {
    const mcall = cap(m, "mcall");
    const fcall = cap(m, "fcall");
    if (!mcall && !fcall) continue;
    const call = (mcall ?? fcall)!;
    const args = argsOf(cap(m, "args")!);
    const line = lineOf(call.startIndex);
    if (mcall) {
      const obj = cap(m, "obj")!;
      const prop = cap(m, "prop")!.text;
      const router = routerOf(obj);
      if (prop === "use") {
        if (!router || args.length === 0) continue;
        const last = args[args.length - 1]!;
        const prefix = args.length >= 2 && isUrlLike(args[0]!) ? urlParts(args[0]!) : null;
        // `app.use('/api', require('./routes'))`: the module's export.
        const required = last.type === "call_expression" && last.childForFieldName("function")?.text === "require" ? argsOf(last.childForFieldName("arguments") ?? last)[0] : undefined;
        if (last.type === "identifier" || last.type === "member_expression") facts.mounts.push({ parent: router, prefix, child: last.text, line });
        else if (required?.type === "string") facts.mounts.push({ parent: router, prefix, child: `require(${required.text})`, line });
        continue;
      }
      const method = METHODS[prop]!;
      // `router.route('/x').get(h).post(h2)`: the path is the route() call's, down the chain.
      const routed = routeCall(obj, routerOf);
      if (routed && args.length >= 1) {
        const handler = args[args.length - 1]!;
        facts.routes.push({ router: routed.router, method, path: urlParts(routed.path), line, handler: handler.type === "identifier" || handler.type === "member_expression" ? handler.text : "" });
        continue;
      }
      if (router && args.length >= 2 && isUrlLike(args[0]!)) {
        const handler = args[args.length - 1]!;
        facts.routes.push({ router, method, path: urlParts(args[0]!), line, handler: handler.type === "identifier" || handler.type === "member_expression" ? handler.text : "" });
        continue;
      }
      if (args.length === 0 || !isUrlLike(args[0]!)) continue;
      const client = obj.text.slice(0, MAX_CLIENT);
      const direct = clients.has(client) || clients.has(client.split(".")[0]!) || /^(this\.)?http(Client)?$/.test(client);
      const url = [...(bases.get(client) ?? []), ...urlParts(args[0]!)];
      if (direct) request(facts, client, method, url, call, line);
      // Perhaps a wrapper's call (`requests.get('/user')`): kept when the URL reads as one, resolved against wrappers later.
      else if (typeof url[0] === "string" && /^(\/|https?:)/.test(url[0])) facts.calls.push({ client: `${client}.${prop}`, method, url, line, viaWrapper: true });
    } else {
      const fn = cap(m, "fn")!.text;
      if (args.length === 0) continue;
      // `superagent('GET', url)`: the method first.
      if (args.length >= 2 && args[0]!.type === "string" && /^(get|post|put|patch|delete|head|options)$/i.test(args[0]!.text.slice(1, -1))) {
        if (isUrlLike(args[1]!)) request(facts, fn, args[0]!.text.slice(1, -1).toUpperCase(), urlParts(args[1]!), call, line);
        continue;
      }
      const options = args[1]?.type === "object" ? args[1] : args[0]!.type === "object" ? args[0] : undefined;
      // Options the code builds elsewhere may set any method: unknown, not GET.
      const opaque = args.length >= 2 && args[1]!.type !== "object";
      const method = stringPair(options, "method")?.toUpperCase() ?? (opaque || (options && pairValue(options, "method")) ? null : "GET");
      const url = args[0]!.type === "object" ? pairValue(args[0]!, "url") : args[0]!;
      if (!url || !isUrlLike(url)) continue;
      request(facts, fn, method, urlParts(url), call, line);
    }
  }
  facts.routers = [...routers];
}

/**
 * A request, or a wrapper: where the URL starts with a parameter of the enclosing function (after
 * names only, a base URL: `ROOT + url`), the function forwards a URL. A parameter after literal
 * text (`/articles/${slug}`) is a path parameter of a request.
 */
function request(facts: ApiFacts, client: string, method: string | null, url: UrlPart[], call: TSNode, line: number): void {
  const fn = enclosingFunction(call);
  if (fn) {
    const params = paramNames(fn.node);
    const at = url.findIndex((p) => typeof p === "object" && "ref" in p && params.includes(p.ref));
    const before = at > 0 ? url[at - 1]! : null;
    // Forwarded when only names come before it, or text that does not end a segment (`/api${path}`).
    const forwarded = at >= 0 && url.slice(0, at).every((p) => typeof p === "object" && "ref" in p || typeof p === "string") && (before === null || typeof before === "object" || !before.endsWith("/"));
    const param = forwarded ? (url[at] as { ref: string }) : null;
    if (param && fn.name) {
      facts.wrappers.push({ name: fn.name, method, url, param: param.ref });
      return;
    }
  }
  facts.calls.push({ client, method, url, line });
}

function python(facts: ApiFacts, matches: Matches, imports: readonly ImportInfo[], lineOf: (offset: number) => number): void {
  const clients = new Set<string>();
  for (const imp of imports) {
    if (PY_CLIENTS.test(imp.module.split(".")[0]!)) {
      clients.add(imp.alias || imp.module);
      for (const n of imp.names) clients.add(n.alias || n.name);
    }
  }
  for (const m of matches) {
    if (!cap(m, "assign")) continue;
    const name = cap(m, "var")!.text;
    const value = cap(m, "value")!;
    if (value.type === "string" && !/^[A-Za-z]*f/i.test(value.text) && isUrlText(pyString(value.text))) facts.strings[name] = pyString(value.text);
    if (value.type === "call") {
      const callee = value.childForFieldName("function")?.text ?? "";
      if (PY_ROUTER_MAKERS.test(callee)) {
        facts.routers.push(name);
        const prefix = keyword(value, callee.endsWith("Blueprint") ? "url_prefix" : "prefix");
        if (prefix) facts.prefixes[name] = pyUrlParts(prefix);
      } else if (clients.has(callee.split(".")[0]!)) clients.add(name);
    }
  }
  for (const m of matches) {
    const route = cap(m, "route");
    const mcall = cap(m, "mcall");
    if (!route && !mcall) continue;
    const obj = cap(m, "obj")!.text;
    const prop = cap(m, "prop")!.text;
    const argList = cap(m, "args")!;
    const args = argList.namedChildren.filter((a) => a.type !== "keyword_argument" && a.type !== "comment");
    if (route) {
      if (args.length === 0 || !isPyUrlLike(args[0]!)) continue;
      const handler = cap(m, "handler")!.text;
      const path = pyUrlParts(args[0]!);
      const methods = prop === "route" || prop === "api_route" ? listOfStrings(keywordIn(argList, "methods")) : [];
      for (const method of methods.length > 0 ? methods.map((x) => x.toUpperCase()) : [METHODS[prop]!]) facts.routes.push({ router: obj, method, path, line: lineOf(route.startIndex), handler });
      continue;
    }
    const call = mcall!;
    if (call.parent?.type === "decorator") continue;
    const line = lineOf(call.startIndex);
    if (prop === "include_router" || prop === "register_blueprint") {
      if (args.length === 0) continue;
      const prefix = keywordIn(argList, prop === "include_router" ? "prefix" : "url_prefix");
      // Flask's url_prefix replaces the blueprint's own; FastAPI's prefix comes before the router's.
      facts.mounts.push({ parent: obj, prefix: prefix ? pyUrlParts(prefix) : [], child: args[0]!.text, line, ...(prefix && prop === "register_blueprint" ? { replaces: true as const } : {}) });
      continue;
    }
    if (!clients.has(obj.split(".")[0]!) || args.length === 0) continue;
    const method = prop === "request" ? (args[0]!.type === "string" ? pyString(args[0]!.text).toUpperCase() : null) : METHODS[prop]!;
    const url = prop === "request" ? args[1] : args[0];
    if (!url || !isPyUrlLike(url)) continue;
    request(facts, obj, method, pyUrlParts(url), call, line);
  }
}

// --- URLs as written ---------------------------------------------------------------------------

/** A constant worth keeping for URLs: short, and a path, a URL or a piece of one. */
function isUrlText(text: string): boolean {
  return text.length <= MAX_STRING && /^(\/|https?:\/\/|[\w.-]*\/)/.test(text);
}

/** `router.route('/x')` at the root of a chain of method calls: its router and path. */
function routeCall(obj: TSNode, routerOf: (node: TSNode) => string | null): { router: string; path: TSNode } | null {
  let n: TSNode | null = obj;
  for (let depth = 0; n && n.type === "call_expression" && depth < 16; depth++) {
    const fn = n.childForFieldName("function");
    if (fn?.type !== "member_expression") return null;
    const target = fn.childForFieldName("object");
    if (fn.childForFieldName("property")?.text === "route" && target) {
      const router = routerOf(target);
      const path = argsOf(n.childForFieldName("arguments") ?? n)[0];
      return router && path && isUrlLike(path) ? { router, path } : null;
    }
    n = target;
  }
  return null;
}

function isUrlLike(node: TSNode): boolean {
  return node.type === "string" || node.type === "template_string" || node.type === "binary_expression" || node.type === "identifier" || node.type === "member_expression";
}

function isPyUrlLike(node: TSNode): boolean {
  return node.type === "string" || node.type === "concatenated_string" || node.type === "binary_operator" || node.type === "identifier" || node.type === "attribute";
}

/** A JS URL expression as parts: literals, `${name}` and `NAME +` references, anything else computed. */
function urlParts(node: TSNode): UrlPart[] {
  switch (node.type) {
    case "string":
      return [node.text.slice(1, -1)];
    case "template_string":
      return templateParts(node.text.slice(1, -1), /\$\{([^}]*)\}/);
    case "binary_expression": {
      const left = node.childForFieldName("left");
      const right = node.childForFieldName("right");
      return left && right && node.text.slice(left.endIndex - node.startIndex).trimStart().startsWith("+") ? clipParts([...urlParts(left), ...urlParts(right)]) : [{ dyn: true }];
    }
    case "identifier":
    case "member_expression":
      return [{ ref: node.text }];
    default:
      return [{ dyn: true }];
  }
}

function pyUrlParts(node: TSNode): UrlPart[] {
  switch (node.type) {
    case "string": {
      const text = node.text;
      const prefix = /^[A-Za-z]*/.exec(text)![0].toLowerCase();
      const body = pyString(text);
      return prefix.includes("f") ? templateParts(body, /\{([^}]*)\}/) : [body];
    }
    case "concatenated_string":
      return clipParts(node.namedChildren.flatMap(pyUrlParts));
    case "binary_operator": {
      const left = node.childForFieldName("left");
      const right = node.childForFieldName("right");
      return left && right && node.childForFieldName("operator")?.text === "+" ? clipParts([...pyUrlParts(left), ...pyUrlParts(right)]) : [{ dyn: true }];
    }
    case "identifier":
    case "attribute":
      return [{ ref: node.text }];
    default:
      return [{ dyn: true }];
  }
}

/** Literal text and `${expr}` (or `{expr}`) pieces: a name or a dotted name is a reference, the rest is computed. */
function templateParts(body: string, hole: RegExp): UrlPart[] {
  const pieces = body.split(new RegExp(hole.source, "g"));
  const parts: UrlPart[] = [];
  pieces.forEach((piece, i) => {
    if (i % 2 === 0) {
      if (piece !== "") parts.push(piece);
    } else {
      const expr = piece.trim();
      parts.push(/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(expr) ? { ref: expr } : { dyn: true });
    }
  });
  return clipParts(parts);
}

function clipParts(parts: UrlPart[]): UrlPart[] {
  return parts.slice(0, MAX_PARTS);
}

function pyString(text: string): string {
  const body = text.replace(/^[A-Za-z]*/, "");
  const quote = body.startsWith('"""') || body.startsWith("'''") ? 3 : 1;
  return body.slice(quote, body.length - quote);
}

// --- the tree around a call ----------------------------------------------------------------------

function argsOf(args: TSNode): TSNode[] {
  return args.namedChildren.filter((a) => a.type !== "comment");
}

function routerMaker(callee: TSNode): boolean {
  return JS_ROUTER_MAKERS.test(callee.text);
}

/** Whether `node` is a call (or `new`) of a router maker, or a chain of calls on one (`Router().use(a).use(b)`). */
function chainRoot(node: TSNode, isMaker: (callee: TSNode) => boolean): boolean {
  let n: TSNode | null = node;
  for (let depth = 0; n && depth < 64; depth++) {
    if (n.type === "new_expression") return isMaker(n.childForFieldName("constructor") ?? n);
    if (n.type !== "call_expression") return false;
    const fn = n.childForFieldName("function");
    if (!fn) return false;
    if (fn.type !== "member_expression" || isMaker(fn)) return isMaker(fn);
    n = fn.childForFieldName("object");
  }
  return false;
}

/** The name a chained expression is kept under: its variable, or `default` when it is exported as such. */
function holderOf(node: TSNode): string | null {
  let n = node;
  for (let depth = 0; depth < 64 && n.parent && (n.parent.type === "member_expression" || n.parent.type === "call_expression"); depth++) n = n.parent;
  const parent = n.parent;
  if (parent?.type === "variable_declarator") return parent.childForFieldName("name")?.text ?? null;
  if (parent?.type === "export_statement") return "default";
  return null;
}

function mentionsClient(call: TSNode, clients: ReadonlySet<string>): boolean {
  const fn = call.childForFieldName("function");
  const root = fn?.type === "member_expression" ? fn.childForFieldName("object") : fn;
  if (root && clients.has(root.text)) return true;
  return argsOf(call.childForFieldName("arguments") ?? call).some((a) => a.type === "identifier" && clients.has(a.text));
}

/** The nearest function around `node`, with the name it is known by (`requests.get` for a property of an object). */
function enclosingFunction(node: TSNode): { node: TSNode; name: string | null } | null {
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

function paramNames(fn: TSNode): string[] {
  const single = fn.childForFieldName("parameter");
  if (single) return [single.text];
  const params = fn.childForFieldName("parameters");
  if (!params) return [];
  return params.namedChildren.map((p) => (p.type === "identifier" ? p.text : (p.childForFieldName("pattern") ?? p.childForFieldName("name") ?? p.firstNamedChild)?.text ?? "")).filter((p) => p !== "");
}

function pairValue(object: TSNode, key: string): TSNode | undefined {
  for (const pair of object.namedChildren) {
    if (pair.type !== "pair") continue;
    if (pair.childForFieldName("key")?.text.replace(/^['"]|['"]$/g, "") === key) return pair.childForFieldName("value") ?? undefined;
  }
  return undefined;
}

function stringPair(object: TSNode | undefined, key: string): string | undefined {
  const value = object && pairValue(object, key);
  return value?.type === "string" ? value.text.slice(1, -1) : undefined;
}

function keywordIn(argList: TSNode, name: string): TSNode | undefined {
  for (const arg of argList.namedChildren) {
    if (arg.type === "keyword_argument" && arg.childForFieldName("name")?.text === name) return arg.childForFieldName("value") ?? undefined;
  }
  return undefined;
}

function keyword(call: TSNode, name: string): TSNode | undefined {
  const args = call.childForFieldName("arguments");
  return args ? keywordIn(args, name) : undefined;
}

function listOfStrings(node: TSNode | undefined): string[] {
  if (!node || (node.type !== "list" && node.type !== "tuple")) return [];
  return node.namedChildren.filter((n) => n.type === "string").map((n) => pyString(n.text));
}
