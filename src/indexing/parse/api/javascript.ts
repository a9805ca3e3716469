import type { ApiFacts, ImportInfo, UrlPart } from "../../../core/types.js";
import type { TSNode } from "../grammars.js";
import { argsOf, cap, METHODS, plusParts, type Matches } from "./tree.js";
import { isUrlText, templateParts } from "./urls.js";

/**
 * JavaScript and TypeScript: Express, Koa-router, Hono and Fastify style `router.get(path, …)`,
 * `parent.use(prefix?, child)`; NestJS controllers (`@Controller('articles')` with `@Get(':slug')`
 * on methods, `app.setGlobalPrefix`); requests through `fetch`, axios (and `axios.create`
 * instances), superagent, ky, got, Angular's `HttpClient`; functions that forward a parameter to
 * one of these (one level).
 */
export const MENTIONS_JS = /\bfetch\(|['"](axios|superagent|superagent-promise|ky|got|express|hono|fastify|koa-router|@koa\/router|@angular\/common\/http|@nestjs\/common)['"]|\.setGlobalPrefix\(|\b(app|router|api|server)\.(get|post|put|patch|delete|all|use|route)\(|\.(get|post|put|patch|delete|del)\(\s*['"`](\/|https?:)|\b(const|let|var)\s+\w+\s*=\s*['"`](\/|https?:)|\benum\s+\w+\s*\{[^}]{0,200}?['"`](\/|https?:)|\b(const|let|var)\s+\w+\s*=\s*\{[^;]{0,200}?:\s*['"`](\/|https?:)/;

const MAX_CLIENT = 80;
const JS_CLIENT_PACKAGES = /^(axios|superagent|superagent-promise|ky|got|node-fetch|cross-fetch|isomorphic-fetch|redaxios)$/;
const JS_ROUTER_MAKERS = /^(express|(express\.)?Router|require\(['"]express['"]\)(\.Router)?|require\(['"]fastify['"]\)|Hono|KoaRouter|fastify|Fastify)$/;
const NEST_METHODS = /^(Get|Post|Put|Patch|Delete|Head|Options|All)$/;

export function javascript(facts: ApiFacts, matches: Matches, imports: readonly ImportInfo[], lineOf: (offset: number) => number): void {
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
    const cls = cap(m, "class");
    if (cls) {
      nestController(facts, cls, lineOf);
      continue;
    }
    const enumDecl = cap(m, "enumdecl");
    if (enumDecl) {
      // `Endpoints.Users` for `enum Endpoints { Users = '/api/users' }`.
      const owner = cap(m, "enum")!.text;
      for (const member of cap(m, "members")!.namedChildren) {
        const key = member.childForFieldName("name")?.text;
        const value = member.childForFieldName("value");
        if (member.type === "enum_assignment" && key && value?.type === "string" && isUrlText(value.text.slice(1, -1))) facts.strings[`${owner}.${key}`] = value.text.slice(1, -1);
      }
      continue;
    }
    const decl = cap(m, "decl");
    if (decl) {
      const name = cap(m, "var")!.text;
      const value = cap(m, "value")!;
      if (value.type === "object") {
        objectStrings(facts.strings, name, value, 0);
        continue;
      }
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
      if (prop === "setGlobalPrefix") {
        if (args[0] && isUrlLike(args[0])) facts.global = urlParts(args[0]);
        continue;
      }
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
        facts.routes.push({ router: routed.router, method, path: urlParts(routed.path), line, ...handlerOf(handler, lineOf) });
        continue;
      }
      if (router && args.length >= 2 && isUrlLike(args[0]!)) {
        const handler = args[args.length - 1]!;
        facts.routes.push({ router, method, path: urlParts(args[0]!), line, ...handlerOf(handler, lineOf) });
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
  facts.routers = [...new Set([...facts.routers, ...routers])];
}


/** The URL strings of an object of constants, by their dotted names (`ROUTES.user.me`), two levels deep. */
function objectStrings(strings: Record<string, string>, prefix: string, object: TSNode, depth: number): void {
  for (const pair of object.namedChildren) {
    if (pair.type !== "pair") continue;
    const key = pair.childForFieldName("key")?.text.replace(/^['"]|['"]$/g, "");
    const value = pair.childForFieldName("value");
    if (!key || !value) continue;
    if ((value.type === "string" || (value.type === "template_string" && !value.text.includes("${"))) && isUrlText(value.text.slice(1, -1))) strings[`${prefix}.${key}`] = value.text.slice(1, -1);
    else if (value.type === "object" && depth < 1) objectStrings(strings, `${prefix}.${key}`, value, depth + 1);
  }
}

/** A route's handler: a name, or the lines of a function written in place. */
function handlerOf(handler: TSNode, lineOf: (offset: number) => number): { handler: string; inline?: [number, number] } {
  if (handler.type === "identifier" || handler.type === "member_expression") return { handler: handler.text };
  if (handler.type === "arrow_function" || handler.type === "function_expression" || handler.type === "function") return { handler: "", inline: [lineOf(handler.startIndex), lineOf(handler.endIndex)] };
  return { handler: "" };
}

/**
 * A NestJS controller: `@Controller('articles')` (or `{ path: 'articles' }`) on the class, a
 * method decorator per route (`@Get(':slug')`, `@Post()`). Its router is the class; the handler
 * `Class.method`.
 */
function nestController(facts: ApiFacts, cls: TSNode, lineOf: (offset: number) => number): void {
  const name = cls.childForFieldName("name")?.text;
  const body = cls.childForFieldName("body");
  if (!name || !body) return;
  // Decorators of an exported class belong to its export statement.
  const decorators = [...cls.namedChildren, ...(cls.parent?.type === "export_statement" ? cls.parent.namedChildren : [])].filter((n) => n.type === "decorator");
  const controller = decorators.map(decoratorCall).find((d) => d?.name === "Controller");
  if (!controller) return;
  const prefixArg = controller.args[0];
  const prefix = prefixArg?.type === "object" ? pairValue(prefixArg, "path") : prefixArg;
  facts.routers.push(name);
  if (prefix && isUrlLike(prefix)) facts.prefixes[name] = urlParts(prefix);
  let pending: Array<{ name: string; args: TSNode[]; at: number }> = [];
  for (const member of body.namedChildren) {
    if (member.type === "decorator") {
      const d = decoratorCall(member);
      if (d) pending.push({ ...d, at: member.startIndex });
      continue;
    }
    if (member.type === "method_definition") {
      const method = member.childForFieldName("name")?.text ?? "";
      for (const d of pending) {
        if (!NEST_METHODS.test(d.name)) continue;
        const path = d.args[0]?.type === "object" ? pairValue(d.args[0], "path") : d.args[0];
        facts.routes.push({ router: name, method: METHODS[d.name.toLowerCase()]!, path: path && isUrlLike(path) ? urlParts(path) : [], line: lineOf(d.at), handler: `${name}.${method}`, controller: true });
      }
    }
    pending = [];
  }
}

function decoratorCall(decorator: TSNode): { name: string; args: TSNode[] } | null {
  const call = decorator.namedChildren[0];
  if (call?.type === "identifier") return { name: call.text, args: [] };
  if (call?.type !== "call_expression") return null;
  const fn = call.childForFieldName("function");
  return fn?.type === "identifier" ? { name: fn.text, args: argsOf(call.childForFieldName("arguments") ?? call) } : null;
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

/** A JS URL expression as parts: literals, `${name}` and `NAME +` references, anything else computed. */
function urlParts(node: TSNode): UrlPart[] {
  switch (node.type) {
    case "string":
      return [node.text.slice(1, -1)];
    case "template_string":
      return templateParts(node.text.slice(1, -1), /\$\{([^}]*)\}/);
    case "binary_expression":
      return plusParts(node, urlParts);
    case "identifier":
    case "member_expression":
      return [{ ref: node.text }];
    default:
      return [{ dyn: true }];
  }
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

// --- wrappers: a function that forwards its parameter into a request -----------------------------

const FUNCTIONS = new Set([
  "arrow_function", "function_expression", "function_declaration", "function", "method_definition", "generator_function_declaration",
]);

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

/** The names of a function's parameters. */
function paramNames(fn: TSNode): string[] {
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
function request(facts: ApiFacts, client: string, method: string | null, url: UrlPart[], call: TSNode, line: number): void {
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
