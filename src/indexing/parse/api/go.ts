import type { ApiFacts, UrlPart } from "../../../core/types.js";
import type { TSNode } from "../grammars.js";
import { argsOf, cap, methodName, plusParts, type Matches } from "./tree.js";
import { formatParts, isUrlText, urlStart } from "./urls.js";

/**
 * Go: net/http (`HandleFunc`, `Handle`, Go 1.22 `"GET /items/{id}"` patterns), gin and echo
 * (`GET`…, `Any`, `Group` prefixes), chi and fiber (`Get`…, `Route`, `Mount`, `Group`), gorilla/mux
 * (`HandleFunc(…).Methods(…)`, `PathPrefix(…).Subrouter()`). A router is a variable made by one of
 * these or a `Group` of one; a function that takes a router (`func Register(r *gin.RouterGroup)`)
 * is a router by its name, mounted where it is called with one (`Register(v1.Group("/users"))`);
 * a function that returns a router variable is that router. Requests: `http.Get` / `Post` /
 * `Head` / `PostForm`, `http.NewRequest(WithContext)`, `client.Get(url)` on a client, resty's
 * `client.R().Get(url)`. Package-level string constants, known as `NAME` and `pkg.NAME`.
 */
export const MENTIONS_GO = /"(net\/http|github\.com\/(gin-gonic\/gin|labstack\/echo[^"]*|go-chi\/chi[^"]*|gorilla\/mux|gofiber\/fiber[^"]*|go-resty\/resty[^"]*))"|\b(const|var)\s+\w+\s*=\s*"(\/|https?:)/;

const MAKERS = /^(gin\.(Default|New)|echo\.New|chi\.(NewRouter|NewMux)|http\.NewServeMux|mux\.NewRouter|fiber\.New)$/;
const ROUTER_TYPES = /^\*?(gin\.(Engine|RouterGroup|IRouter|IRoutes)|echo\.(Echo|Group)|chi\.(Router|Mux)|http\.ServeMux|mux\.Router|fiber\.(App|Router))$/;
const UPPER = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|Any)$/;
const CAPITAL = /^(Get|Post|Put|Patch|Delete|Head|Options|All)$/;
const FUNCS = new Set(["function_declaration", "method_declaration", "func_literal"]);

export function go(facts: ApiFacts, matches: Matches, lineOf: (offset: number) => number): void {
  const pkg = matches.map((m) => cap(m, "pkg")).find(Boolean)?.text;
  const routers = new Set<string>();
  const routerOf = (node: TSNode): string | null => {
    if (node.type === "identifier" || node.type === "selector_expression") return node.text === "http" ? "http" : namedRouter(node, routers);
    // `r.Group("/api").GET(…)`, `r.PathPrefix("/api").Subrouter()`: a router of its own, mounted.
    const group = groupOf(node);
    if (!group) return null;
    const parent = routerOf(group.parent);
    if (!parent) return null;
    const name = `group@${node.startIndex}`;
    if (routers.has(name)) return name;
    facts.mounts.push({ parent, prefix: group.prefix, child: name, line: lineOf(node.startIndex) });
    routers.add(name);
    return name;
  };
  // Declarations first: routers, groups, constants; the functions that return a router.
  // A variable is known in the function that declares it (`NewRouter:r`), or the package's (`:r`).
  for (const m of matches) {
    const decl = cap(m, "decl");
    if (!decl) continue;
    const variable = cap(m, "var")!.text;
    const name = `${scopeOf(decl)}:${variable}`;
    const value = cap(m, "value")!;
    const text = stringOf(value);
    if (text !== undefined && isUrlText(text) && enclosing(decl) === null) {
      facts.strings[variable] = text;
      if (pkg) facts.strings[`${pkg}.${variable}`] = text;
    }
    if (value.type !== "call_expression") continue;
    const callee = value.childForFieldName("function")?.text ?? "";
    if (MAKERS.test(callee)) routers.add(name);
    else {
      const group = groupOf(value);
      const parent = group && routerOf(group.parent);
      if (group && parent) {
        routers.add(name);
        facts.mounts.push({ parent, prefix: group.prefix, child: name, line: lineOf(value.startIndex) });
      }
    }
  }
  for (const m of matches) {
    const ret = cap(m, "ret");
    const returned = ret && routerOf(ret);
    const fn = ret && enclosing(ret);
    const name = fn?.childForFieldName("name")?.text;
    if (returned && name && returned !== name) facts.exports[name] = returned;
  }
  const seen = new Set<number>();
  for (const m of matches) {
    const call = cap(m, "mcall") ?? cap(m, "fcall");
    if (!call) continue;
    // One match per argument that may be a router: each call once.
    if (cap(m, "fcall") && (seen.has(call.id) || !seen.add(call.id))) continue;
    const args = argsOf(cap(m, "args")!);
    const line = lineOf(call.startIndex);
    if (cap(m, "fcall")) {
      // `Register(v1.Group("/users"))`, `users.Register(api)`: the function is a router mounted there.
      const fnNode = cap(m, "fn")!;
      // A router's own methods (`r.Mount(…)`) and the package's are not mounts of a function.
      if (fnNode.type === "selector_expression" && (fnNode.childForFieldName("operand")!.text === "http" || routerOf(fnNode.childForFieldName("operand")!))) continue;
      const fn = fnNode.text;
      for (const arg of args) {
        const parent = routerOf(arg);
        if (parent && parent !== "http") facts.mounts.push({ parent, prefix: null, child: fn, line });
      }
      continue;
    }
    const obj = cap(m, "obj")!;
    const prop = cap(m, "prop")!.text;
    // The package's own functions are routes only for its default mux (`http.HandleFunc`); `http.Post` is a request.
    const router = obj.text === "http" && prop !== "Handle" && prop !== "HandleFunc" ? null : routerOf(obj);
    if (router) {
      if (prop === "Route" || prop === "Mount") {
        // chi: `r.Route("/api", func(r chi.Router) {…})`, `r.Mount("/api", apiRouter())`.
        const target = args[1];
        const child = !target ? undefined : target.type === "func_literal" ? `fn@${target.startIndex}` : target.type === "call_expression" ? target.childForFieldName("function")?.text : (routerOf(target) ?? target.text);
        if (child && args[0] && isUrlLike(args[0])) facts.mounts.push({ parent: router, prefix: partsOf(args[0]), child, line });
        continue;
      }
      const route = routeOf(prop, args, call);
      if (route) {
        const last = args[args.length - 1]!;
        const inline = last.type === "func_literal" ? { inline: [lineOf(last.startIndex), lineOf(last.endIndex)] as [number, number] } : {};
        facts.routes.push({ router, method: route.method, path: route.path, line, handler: route.handler, ...inline });
        if (!facts.routers.includes(router)) facts.routers.push(router);
        continue;
      }
    }
    const req = requestOf(obj, prop, args);
    if (req) facts.calls.push({ client: obj.text.slice(0, 80), method: req.method, url: req.url, line });
  }
  facts.routers = [...new Set([...facts.routers, ...routers])];
}

/** A route call on a router: its method, path and handler. */
function routeOf(prop: string, args: TSNode[], call: TSNode): { method: string; path: UrlPart[]; handler: string } | null {
  const handlerOf = (n: TSNode | undefined): string => (n && (n.type === "identifier" || n.type === "selector_expression") ? n.text : "");
  if (UPPER.test(prop) || CAPITAL.test(prop)) {
    if (args.length < 2 || !isUrlLike(args[0]!)) return null;
    return { method: methodName(prop) ?? "*", path: partsOf(args[0]!), handler: handlerOf(args[args.length - 1]) };
  }
  if ((prop === "Handle" || prop === "HandleFunc" || prop === "Method" || prop === "MethodFunc") && args.length >= 2) {
    // gin's `Handle("GET", "/x", h)`, chi's `Method("GET", "/x", h)`: the method first.
    if (args.length >= 3 && stringOf(args[0]!) !== undefined && methodName(stringOf(args[0]!)!) && isUrlLike(args[1]!)) return { method: methodName(stringOf(args[0]!)!)!, path: partsOf(args[1]!), handler: handlerOf(args[2]) };
    if (!isUrlLike(args[0]!)) return null;
    const path = partsOf(args[0]!);
    // Go 1.22: "GET /items/{id}" (a host may come before the path: "GET example.com/x").
    const first = path[0];
    const pattern = typeof first === "string" ? /^([A-Z]+)\s+(\S*)$/.exec(first) : null;
    const methods = gorillaMethods(call);
    if (pattern && methodName(pattern[1]!)) return { method: methodName(pattern[1]!)!, path: [pattern[2]!.replace(/^[^/]+(?=\/)/, ""), ...path.slice(1)], handler: handlerOf(args[1]) };
    return { method: methods[0] ?? "*", path, handler: handlerOf(args[1]) };
  }
  return null;
}

/** gorilla/mux: `r.HandleFunc("/x", h).Methods("GET", "POST")`. */
function gorillaMethods(call: TSNode): string[] {
  const sel = call.parent;
  if (sel?.type !== "selector_expression" || sel.childForFieldName("field")?.text !== "Methods") return [];
  const outer = sel.parent;
  return outer?.type === "call_expression" ? argsOf(outer.childForFieldName("arguments") ?? outer).map((a) => methodName(stringOf(a) ?? a.text)).filter((x): x is string => x !== undefined) : [];
}

/** `x.Group("/p", …)`, `x.PathPrefix("/p").Subrouter()`: the router it is made from, and its prefix. */
function groupOf(node: TSNode): { parent: TSNode; prefix: UrlPart[] } | null {
  if (node.type !== "call_expression") return null;
  const fn = node.childForFieldName("function");
  if (fn?.type !== "selector_expression") return null;
  const field = fn.childForFieldName("field")?.text;
  const operand = fn.childForFieldName("operand")!;
  const args = argsOf(node.childForFieldName("arguments") ?? node);
  if (field === "Group" && args[0] && isUrlLike(args[0])) return { parent: operand, prefix: partsOf(args[0]) };
  if (field === "Subrouter" && operand.type === "call_expression") {
    const inner = operand.childForFieldName("function");
    const innerArgs = argsOf(operand.childForFieldName("arguments") ?? operand);
    if (inner?.type === "selector_expression" && inner.childForFieldName("field")?.text === "PathPrefix" && innerArgs[0]) return { parent: inner.childForFieldName("operand")!, prefix: partsOf(innerArgs[0]) };
  }
  return null;
}

/** A request: `http.Get(url)`, `http.NewRequest(method, url, body)`, `client.Post(url, …)`, `client.R().Get(url)`. */
function requestOf(obj: TSNode, prop: string, args: TSNode[]): { method: string | null; url: UrlPart[] } | null {
  const text = obj.text;
  if (prop === "NewRequest" || prop === "NewRequestWithContext") {
    if (text !== "http") return null;
    const [m, u] = prop === "NewRequest" ? [args[0], args[1]] : [args[1], args[2]];
    if (!u || !isUrlLike(u) || !urlStart(partsOf(u))) return null;
    return { method: m ? methodName(stringOf(m) ?? m.text) ?? null : null, url: partsOf(u) };
  }
  const method = prop === "PostForm" ? "POST" : /^(Get|Post|Head|Put|Patch|Delete)$/.test(prop) ? prop.toUpperCase() : null;
  if (!method || !args[0] || !isUrlLike(args[0])) return null;
  // The package's functions, an `http.Client`, or resty's `R()` request.
  const client = text === "http" || /(^|\.)(DefaultClient|\w*[cC]lient)$/.test(text) || /\.R\(\)/.test(text);
  if (!client) return null;
  const url = partsOf(args[0]);
  return urlStart(url) ? { method, url } : null;
}


/**
 * The router a name stands for, from the innermost function out: a parameter of a router type
 * (`func Register(r *gin.RouterGroup)`: that function, by name; a closure's `fn@offset`), a
 * variable declared in that function (`NewRouter:r`), or the package's (`:r`). A parameter of
 * another type hides the names outside it.
 */
function namedRouter(node: TSNode, routers: ReadonlySet<string>): string | null {
  for (let fn = enclosing(node); fn; fn = enclosing(fn)) {
    const scope = fn.type === "func_literal" ? `fn@${fn.startIndex}` : (fn.childForFieldName("name")?.text ?? "");
    for (const p of fn.childForFieldName("parameters")?.namedChildren ?? []) {
      if (p.childrenForFieldName("name").some((n) => n.text === node.text)) return ROUTER_TYPES.test(p.childForFieldName("type")?.text ?? "") ? scope : null;
    }
    if (routers.has(`${scope}:${node.text}`)) return `${scope}:${node.text}`;
  }
  if (routers.has(`:${node.text}`)) return `:${node.text}`;
  // A struct's field (`s.router`) is the same router in every method.
  return node.type === "selector_expression" ? ([...routers].find((key) => key.endsWith(`:${node.text}`)) ?? null) : null;
}

/** The scope a declaration is in: its function (by name, or `fn@offset` for a closure), or the package (`""`). */
function scopeOf(node: TSNode): string {
  const fn = enclosing(node);
  if (!fn) return "";
  return fn.type === "func_literal" ? `fn@${fn.startIndex}` : (fn.childForFieldName("name")?.text ?? "");
}

function enclosing(node: TSNode): TSNode | null {
  for (let n = node.parent, depth = 0; n && depth < 64; n = n.parent, depth++) if (FUNCS.has(n.type)) return n;
  return null;
}

function isUrlLike(node: TSNode): boolean {
  return node.type === "interpreted_string_literal" || node.type === "raw_string_literal" || node.type === "binary_expression" || node.type === "identifier" || node.type === "selector_expression" || (node.type === "call_expression" && /^fmt\.Sprintf$/.test(node.childForFieldName("function")?.text ?? ""));
}

function stringOf(node: TSNode): string | undefined {
  if (node.type === "interpreted_string_literal" || node.type === "raw_string_literal") return node.text.slice(1, -1);
  return undefined;
}

/** A URL expression as parts: literals, `+`, names, `fmt.Sprintf`. */
function partsOf(node: TSNode): UrlPart[] {
  const text = stringOf(node);
  if (text !== undefined) return [text];
  switch (node.type) {
    case "binary_expression":
      return plusParts(node, partsOf);
    case "identifier":
    case "selector_expression":
      return [{ ref: node.text }];
    case "call_expression": {
      const args = argsOf(node.childForFieldName("arguments") ?? node);
      const format = args[0] && stringOf(args[0]);
      if (node.childForFieldName("function")?.text === "fmt.Sprintf" && format !== undefined) return formatParts(format, args.slice(1).map(partsOf), /%[-+# 0]{0,4}\d{0,4}(?:\.\d{1,4})?[a-zA-Z]/);
      return [{ dyn: true }];
    }
    default:
      return [{ dyn: true }];
  }
}
