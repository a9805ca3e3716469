import type { ApiFacts, ImportInfo } from "../../../core/types.js";
import type { UrlPart } from "../../../core/types.js";
import type { TSNode } from "../grammars.js";
import { argsOf, cap, METHODS, plusParts, type Matches } from "./tree.js";
import { clipParts, isUrlText, templateParts } from "./urls.js";

/**
 * Python: FastAPI and Flask decorators (`@router.get`, `@app.route(methods=)`), routers' own
 * prefixes (`APIRouter(prefix=)`, `Blueprint(url_prefix=)`), `include_router` /
 * `register_blueprint` prefixes; Django's `path()`, `re_path()` and `url()` lists with
 * `include()` (a module, a list, a router's `urls`), Django REST framework routers'
 * `register`; requests through requests / httpx.
 */
export const MENTIONS_PY = /\b(APIRouter|FastAPI|Blueprint|Flask|include_router|register_blueprint|requests|httpx|\.route\(|urlpatterns|DefaultRouter|SimpleRouter)|^[A-Za-z_]\w*\s*=\s*['"](\/|https?:)/m;

const PY_ROUTER_MAKERS = /^(FastAPI|APIRouter|Flask|Blueprint|(fastapi|flask)\.(FastAPI|APIRouter|Flask|Blueprint))$/;
const DRF_ROUTERS = /^((rest_framework\.)?routers\.)?(DefaultRouter|SimpleRouter)$/;
const PY_CLIENTS = /^(requests|httpx|aiohttp)$/;

export function python(facts: ApiFacts, matches: Matches, imports: readonly ImportInfo[], lineOf: (offset: number) => number): void {
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
      if (DRF_ROUTERS.test(callee)) facts.routers.push(name);
      else if (PY_ROUTER_MAKERS.test(callee)) {
        facts.routers.push(name);
        const prefix = keyword(value, callee.endsWith("Blueprint") ? "url_prefix" : "prefix");
        if (prefix) facts.prefixes[name] = pyUrlParts(prefix);
      } else if (clients.has(callee.split(".")[0]!)) clients.add(name);
    }
  }
  for (const m of matches) {
    const dpath = cap(m, "dpath");
    if (dpath) {
      djangoPath(facts, dpath, cap(m, "dfn")!.text, cap(m, "dargs")!, lineOf);
      continue;
    }
    const urls = cap(m, "assign") && cap(m, "value")!;
    if (urls) {
      // `urlpatterns = router.urls`, `urlpatterns += router.urls`, `[…] + router.urls`: the router under the list.
      for (const child of routerUrls(urls)) facts.mounts.push({ parent: cap(m, "var")!.text, prefix: [], child, line: lineOf(urls.startIndex) });
      continue;
    }
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
    if (prop === "register") {
      // Django REST framework: `router.register(r'articles', ArticleViewSet)` serves the list and each item.
      if (!facts.routers.includes(obj) || args.length < 2 || !isPyUrlLike(args[0]!)) continue;
      const prefix = args[0]!.type === "string" ? [regexPath(pyString(args[0]!.text))] : pyUrlParts(args[0]!);
      const handler = args[1]!.text;
      facts.routes.push({ router: obj, method: "*", path: prefix, line, handler }, { router: obj, method: "*", path: [...prefix, "/{pk}"], line, handler });
      continue;
    }
    if (!clients.has(obj.split(".")[0]!) || args.length === 0) continue;
    const method = prop === "request" ? (args[0]!.type === "string" ? pyString(args[0]!.text).toUpperCase() : null) : METHODS[prop]!;
    const url = prop === "request" ? args[1] : args[0];
    if (!url || !isPyUrlLike(url)) continue;
    facts.calls.push({ client: obj, method, url: pyUrlParts(url), line });
  }
}

/**
 * A Django URL pattern: `path('articles/<slug:slug>/', view)` is a route (any method: the view
 * decides); with `include(…)` a mount of a module's `urlpatterns`, an inline list, or a router's
 * `urls`. Its router is the list it is written in.
 */
function djangoPath(facts: ApiFacts, call: TSNode, fn: string, argList: TSNode, lineOf: (offset: number) => number): void {
  const args = argList.namedChildren.filter((a) => a.type !== "keyword_argument" && a.type !== "comment");
  const router = patternList(call);
  if (args.length < 2 || !router || !isPyUrlLike(args[0]!)) return;
  const regex = !/(^|\.)path$/.test(fn);
  const path = regex && args[0]!.type === "string" ? [regexPath(pyString(args[0]!.text))] : pyUrlParts(args[0]!);
  if (!facts.routers.includes(router)) facts.routers.push(router);
  const line = lineOf(call.startIndex);
  const view = args[1]!;
  const callee = view.type === "call" ? view.childForFieldName("function")?.text ?? "" : "";
  if (/(^|\.)include$/.test(callee)) {
    const included = argsOf(view.childForFieldName("arguments") ?? view).find((a) => a.type !== "keyword_argument");
    // `include((patterns, 'app'))`: the patterns.
    const target = included?.type === "tuple" ? included.namedChildren[0] : included;
    const child =
      target?.type === "string" ? `module:${pyString(target.text)}` : target?.type === "list" ? listName(target) : target?.type === "attribute" && target.text.endsWith(".urls") ? target.text.slice(0, -".urls".length) : target?.type === "identifier" || target?.type === "attribute" ? target.text : null;
    if (child) facts.mounts.push({ parent: router, prefix: path, child, line });
    return;
  }
  // `views.ArticleView.as_view()` is served by the class.
  const handler = view.type === "call" && callee.endsWith(".as_view") ? callee.slice(0, -".as_view".length) : view.type === "identifier" || view.type === "attribute" ? view.text : "";
  facts.routes.push({ router, method: "*", path, line, handler });
}

/** The list a URL pattern is written in, by its variable (`urlpatterns`), or by place for one inside `include([…])`. */
function patternList(call: TSNode): string | null {
  const list = call.parent;
  if (list?.type !== "list" && list?.type !== "tuple") return null;
  let n: TSNode | null = list.parent;
  for (let depth = 0; n?.type === "binary_operator" && depth < 16; depth++) n = n.parent;
  if ((n?.type === "assignment" || n?.type === "augmented_assignment") && n.childForFieldName("left")?.type === "identifier") return n.childForFieldName("left")!.text;
  if (n?.type === "argument_list") return listName(list);
  return null;
}

function listName(list: TSNode): string {
  return `urls@${list.startIndex}`;
}

/** The routers whose `urls` an assignment's value takes. */
function routerUrls(value: TSNode): string[] {
  if (value.type === "attribute" && value.text.endsWith(".urls")) return [value.text.slice(0, -".urls".length)];
  if (value.type === "binary_operator") return [...routerUrls(value.childForFieldName("left")!), ...routerUrls(value.childForFieldName("right")!)];
  return [];
}

/**
 * A Django regex as a path: anchors and quantifiers dropped, escapes read, each group a parameter
 * (`(?P<slug>[-\w]+)` → `{slug}`), as is a character class or `\d`, `\w`, `.` with what repeats it
 * (`[0-9]{4}` → `{}`); a non-capturing group is left out. A segment mixing text and parameters is
 * one parameter.
 */
export function regexPath(re: string): string {
  const body = re.replace(/^\^/, "").replace(/\$$/, "");
  let out = "";
  /** Past a quantifier (`+`, `*`, `?`, `{2}`, `{1,3}`) at `i`, if there is one. */
  const quantified = (i: number): number => {
    if (body[i] === "+" || body[i] === "*" || body[i] === "?") return i + 1;
    const braces = /^\{\d{0,4}(,\d{0,4})?\}/.exec(body.slice(i, i + 12));
    return braces ? i + braces[0].length : i;
  };
  for (let i = 0; i < body.length; ) {
    const c = body[i]!;
    if (c === "(") {
      let depth = 0;
      let j = i;
      for (; j < body.length; j++) {
        if (body[j] === "\\") j++;
        else if (body[j] === "(") depth++;
        else if (body[j] === ")" && --depth === 0) break;
      }
      const group = body.slice(i, j + 1);
      if (!group.startsWith("(?:")) out += `{${/^\(\?P<(\w+)>/.exec(group)?.[1] ?? ""}}`;
      i = quantified(j + 1);
    } else if (c === "[") {
      let j = i + 1;
      while (j < body.length && body[j] !== "]") j += body[j] === "\\" ? 2 : 1;
      out += "{}";
      i = quantified(j + 1);
    } else if (c === "\\") {
      const next = body[i + 1] ?? "";
      if (/[dDwWsS]/.test(next)) {
        out += "{}";
        i = quantified(i + 2);
      } else {
        out += next;
        i += 2;
      }
    } else if (c === ".") {
      out += "{}";
      i = quantified(i + 1);
    } else {
      if (!"?*+".includes(c)) out += c;
      i++;
    }
  }
  return out
    .split("/")
    .map((segment) => (segment.includes("{") && !/^\{\w*\}$/.test(segment) ? "{}" : segment))
    .join("/");
}

function isPyUrlLike(node: TSNode): boolean {
  return node.type === "string" || node.type === "concatenated_string" || node.type === "binary_operator" || node.type === "identifier" || node.type === "attribute";
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
    case "binary_operator":
      return plusParts(node, pyUrlParts);
    case "identifier":
    case "attribute":
      return [{ ref: node.text }];
    default:
      return [{ dyn: true }];
  }
}

function pyString(text: string): string {
  const body = text.replace(/^[A-Za-z]*/, "");
  const quote = body.startsWith('"""') || body.startsWith("'''") ? 3 : 1;
  return body.slice(quote, body.length - quote);
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
