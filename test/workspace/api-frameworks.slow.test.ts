import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Workspace } from "../../src/workspace/workspace.js";
import { TempRepo } from "../helpers/repo.js";

// One server per framework family, each a real repository indexed through the real pipeline, and
// one client that calls them. Every route, mount and link below is asserted exactly.
const lines = (...l: string[]) => [...l, ""].join("\n");

const nest = TempRepo.create({
  "src/main.ts": lines("import { NestFactory } from '@nestjs/core';", "import { AppModule } from './app.module';", "async function bootstrap() {", "  const app = await NestFactory.create(AppModule);", "  app.setGlobalPrefix('api');", "  await app.listen(3000);", "}"),
  "src/articles/articles.controller.ts": lines(
    "import { Controller, Delete, Get, Param, Post } from '@nestjs/common';",
    "@Controller('articles')",
    "export class ArticlesController {",
    "  @Get()",
    "  findAll() {}",
    "  @Get(':slug')",
    "  findOne(@Param('slug') slug: string) {}",
    "  @Post(':slug/comments')",
    "  addComment() {}",
    "  @Delete(':slug/favorite')",
    "  unfavorite() {}",
    "}",
  ),
  "src/tags/tags.controller.ts": lines("import { Controller, Get } from '@nestjs/common';", "@Controller({ path: 'tags' })", "export class TagsController {", "  @Get()", "  list() {}", "}"),
}, { git: true });

const next = TempRepo.create({
  "pages/api/users/[id].ts": lines("export default async function handler(req: any, res: any) {", "  res.json({});", "}"),
  "pages/api/health/index.ts": lines("export default function health(req: any, res: any) {}"),
  "app/api/tags/route.ts": lines("export async function GET() {}", "export async function POST(request: Request) {}"),
  "app/(shop)/api/cart/[...items]/route.ts": lines("export async function PUT() {}"),
  "app/api/_lib/route.ts": lines("export async function GET() {}"),
}, { git: true });

const django = TempRepo.create({
  "conduit/urls.py": lines(
    "from django.urls import include, path, re_path",
    "from rest_framework.routers import DefaultRouter",
    "from conduit.apps.articles.views import ArticleViewSet, TagListView",
    "router = DefaultRouter()",
    "router.register(r'articles', ArticleViewSet)",
    "urlpatterns = [",
    "    path('api/', include('conduit.apps.profiles.urls')),",
    "    path('api/', include(router.urls)),",
    "    re_path(r'^api/tags/?$', TagListView.as_view()),",
    "]",
  ),
  "conduit/apps/profiles/urls.py": lines(
    "from django.urls import include, path",
    "from . import views",
    "from .views import LoginAPIView, ProfileRetrieveAPIView",
    "urlpatterns = [",
    "    path('profiles/<str:username>/', ProfileRetrieveAPIView.as_view()),",
    "    path('profiles/<str:username>/follow/', views.follow),",
    "    path('users/', include([path('login/', LoginAPIView.as_view())])),",
    "]",
  ),
  "conduit/apps/profiles/views.py": lines("class LoginAPIView:", "    pass", "class ProfileRetrieveAPIView:", "    pass", "def follow(request, username):", "    pass"),
  "conduit/apps/articles/views.py": lines("class ArticleViewSet:", "    pass", "class TagListView:", "    pass"),
}, { git: true });

const spring = TempRepo.create({
  "src/main/java/io/conduit/ApiPaths.java": lines("package io.conduit;", "public final class ApiPaths {", '  public static final String ARTICLES = "/api/articles";', '  public static final String TAGS_URL = "/api/tags";', "}"),
  "src/main/java/io/conduit/ArticlesApi.java": lines(
    "package io.conduit;",
    "import org.springframework.web.bind.annotation.*;",
    "@RestController",
    "@RequestMapping(path = ApiPaths.ARTICLES)",
    "public class ArticlesApi {",
    '  @GetMapping("/{slug}")',
    "  public Article article(@PathVariable String slug) { return null; }",
    "  @PostMapping",
    "  public Article create() { return null; }",
    '  @RequestMapping(value = "/{slug}/favorite", method = {RequestMethod.POST, RequestMethod.DELETE})',
    "  public Article favorite() { return null; }",
    "}",
  ),
  "src/main/java/io/conduit/UsersClient.java": lines(
    "package io.conduit;",
    "import org.springframework.cloud.openfeign.FeignClient;",
    "import org.springframework.web.bind.annotation.GetMapping;",
    '@FeignClient(name = "users", url = "${users.url}")',
    "public interface UsersClient {",
    '  @GetMapping("/api/profiles/{username}")',
    "  Profile profile(String username);",
    "}",
  ),
  "src/main/java/io/conduit/TagsService.java": lines(
    "package io.conduit;",
    "import org.springframework.web.client.RestTemplate;",
    "public class TagsService {",
    "  private final RestTemplate rest = new RestTemplate();",
    "  public String[] tags() { return rest.getForObject(ApiPaths.TAGS_URL, String[].class); }",
    '  public void login(String base) { WebClient.create().post().uri(base + "/api/users/login").retrieve(); }',
    "}",
  ),
}, { git: true });

const golang = TempRepo.create({
  "go.mod": lines("module example.com/conduit", "go 1.22"),
  "main.go": lines(
    "package main",
    'import (\n  "net/http"\n  "github.com/gin-gonic/gin"\n  "example.com/conduit/users"\n)',
    "func main() {",
    "  r := gin.Default()",
    '  v1 := r.Group("/api")',
    '  users.Register(v1.Group("/users"))',
    '  v1.GET("/tags", TagList)',
    "  mux := http.NewServeMux()",
    '  mux.HandleFunc("GET /health/{probe}", health)',
    "}",
    "func TagList(c *gin.Context) {}",
    "func health(w http.ResponseWriter, r *http.Request) {}",
  ),
  "users/routes.go": lines(
    "package users",
    'import "github.com/gin-gonic/gin"',
    "func Register(router *gin.RouterGroup) {",
    '  router.POST("/login", Login)',
    '  router.GET("/:id", Get)',
    "}",
  ),
  "users/handlers.go": lines("package users", 'import "github.com/gin-gonic/gin"', "func Login(c *gin.Context) {}"),
  "server/chi.go": lines(
    "package server",
    'import (\n  "net/http"\n  "github.com/go-chi/chi/v5"\n)',
    "func NewRouter() *chi.Mux {",
    "  r := chi.NewRouter()",
    '  r.Route("/api/articles", func(r chi.Router) {',
    '    r.Get("/", list)',
    '    r.Get("/{slug}", get)',
    "  })",
    '  r.Mount("/admin", adminRouter())',
    "  return r",
    "}",
    "func adminRouter() http.Handler {",
    "  r := chi.NewRouter()",
    '  r.Get("/stats", stats)',
    "  return r",
    "}",
  ),
  "client/auth.go": lines(
    "package client",
    'import (\n  "fmt"\n  "net/http"\n)',
    'const BaseURL = "http://auth.internal"',
    "func Login(name string) {",
    '  req, _ := http.NewRequest(http.MethodPost, BaseURL+"/api/users/login", nil)',
    "  _ = req",
    '  http.Get(fmt.Sprintf("%s/api/profiles/%s", BaseURL, name))',
    "}",
  ),
}, { git: true });

const rust = TempRepo.create({
  "Cargo.toml": lines("[package]", 'name = "conduit"'),
  "src/main.rs": lines(
    "use axum::{routing::get, Router};",
    "mod routes;",
    "fn app() -> Router {",
    '    Router::new().nest("/api", routes::users::router()).route("/api/tags", get(tags::list))',
    "}",
  ),
  "src/routes/users.rs": lines(
    "use axum::{routing::{get, post}, Router};",
    "pub fn router() -> Router {",
    '    Router::new().route("/users", post(create)).route("/profiles/:username", get(profile).delete(unfollow))',
    "}",
  ),
  "src/tags.rs": lines("pub async fn list() -> String { String::new() }"),
  "src/actix.rs": lines(
    "use actix_web::{get, web, App};",
    '#[get("/articles/{slug}")]',
    "async fn article() -> String { String::new() }",
    "fn build() { App::new().service(web::scope(\"/v2\").service(article).route(\"/feed\", web::get().to(feed))); }",
  ),
  "src/client.rs": lines(
    "const BASE: &str = \"http://api.internal\";",
    "async fn tags(client: &reqwest::Client) { client.get(format!(\"{}/api/tags\", BASE)).send().await; }",
    "async fn follow(client: &reqwest::Client, name: &str) { client.post(&format!(\"/api/profiles/{name}\")).send().await; }",
  ),
}, { git: true });

// What must not go wrong: a constant of another package, routers mounted into each other many times over.
const fanout = ["from fastapi import APIRouter", ...Array.from({ length: 9 }, (_, i) => `r${i} = APIRouter()`), "@r0.get('/x')", "def x():", "    pass"];
for (let i = 1; i < 9; i++) for (let k = 0; k < 6; k++) fanout.push(`r${i}.include_router(r${i - 1}, prefix='/p')`);
const edge = TempRepo.create({
  "go.mod": lines("module example.com/edge"),
  "a/config.go": lines("package a", 'const baseURL = "http://a-service"'),
  "b/client.go": lines("package b", 'import (\n  "net/http"\n  "os"\n)', "func Users() {", '  baseURL := os.Getenv("B")', '  http.Get(baseURL + "/users")', "}"),
  "app/fanout.py": lines(...fanout),
}, { git: true });

const dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-apifw-"));
let ws: Workspace;
const repos = { nest, next, django, spring, golang, rust, edge };

beforeAll(async () => {
  ws = new Workspace({ dataDir, engine: { jobs: 1, semantic: false } });
  for (const [name, repo] of Object.entries(repos)) await ws.addRepo(name, repo.root);
}, 120_000);

afterAll(async () => {
  await ws?.close();
  rmSync(dataDir, { recursive: true, force: true });
  Object.values(repos).forEach((r) => r.dispose());
});

const routesOf = async (repo: string) => (await ws.apiMap({ repos: [repo] })).routes.map((r) => `${r.method} ${r.path} ${r.pattern} ${r.handler} ${r.file}:${r.line}`);
const handlersOf = async (repo: string) => (await ws.apiMap({ repos: [repo] })).routes.map((r) => `${r.handler} ${r.handlerFile ?? "-"}:${r.handlerLine ?? "-"}`);
const callsOf = async (repo: string, servers: string[]) => (await ws.apiMap({ repos: [repo, ...servers] })).calls.filter((c) => c.repo === repo);

describe("routes of each framework, with their prefixes (real index)", () => {
  it("NestJS: controller paths, method decorators, the global prefix", async () => {
    expect(await routesOf("nest")).toEqual([
      "GET /api/articles /api/articles ArticlesController.findAll src/articles/articles.controller.ts:4",
      "GET /api/articles/:slug /api/articles/{} ArticlesController.findOne src/articles/articles.controller.ts:6",
      "POST /api/articles/:slug/comments /api/articles/{}/comments ArticlesController.addComment src/articles/articles.controller.ts:8",
      "DELETE /api/articles/:slug/favorite /api/articles/{}/favorite ArticlesController.unfavorite src/articles/articles.controller.ts:10",
      "GET /api/tags /api/tags TagsController.list src/tags/tags.controller.ts:4",
    ]);
  });

  it("Next.js: pages/api and App Router route files by path; groups, index and private folders", async () => {
    expect(await routesOf("next")).toEqual([
      "PUT /api/cart/{items} /api/cart/{} PUT app/(shop)/api/cart/[...items]/route.ts:1",
      "GET /api/tags /api/tags GET app/api/tags/route.ts:1",
      "POST /api/tags /api/tags POST app/api/tags/route.ts:2",
      "* /api/health /api/health health pages/api/health/index.ts:1",
      "* /api/users/{id} /api/users/{} handler pages/api/users/[id].ts:1",
    ]);
  });

  it("Django: path and re_path, include of a module, of an inline list and of a REST framework router", async () => {
    expect(await routesOf("django")).toEqual([
      "* /api/profiles/<str:username>/ /api/profiles/{} ProfileRetrieveAPIView conduit/apps/profiles/urls.py:5",
      "* /api/profiles/<str:username>/follow/ /api/profiles/{}/follow views.follow conduit/apps/profiles/urls.py:6",
      "* /api/users/login/ /api/users/login LoginAPIView conduit/apps/profiles/urls.py:7",
      "* /api/articles /api/articles ArticleViewSet conduit/urls.py:5",
      "* /api/articles/{pk} /api/articles/{} ArticleViewSet conduit/urls.py:5",
      "* /api/tags/ /api/tags TagListView conduit/urls.py:9",
    ]);
  });

  it("Spring: the class mapping from a constant of another class, method mappings, several methods; Feign is a client", async () => {
    expect(await routesOf("spring")).toEqual([
      "GET /api/articles/{slug} /api/articles/{} ArticlesApi.article src/main/java/io/conduit/ArticlesApi.java:6",
      "POST /api/articles /api/articles ArticlesApi.create src/main/java/io/conduit/ArticlesApi.java:8",
      "POST /api/articles/{slug}/favorite /api/articles/{}/favorite ArticlesApi.favorite src/main/java/io/conduit/ArticlesApi.java:10",
      "DELETE /api/articles/{slug}/favorite /api/articles/{}/favorite ArticlesApi.favorite src/main/java/io/conduit/ArticlesApi.java:10",
    ]);
  });

  it("Go: gin groups passed to a function of another package, net/http method patterns, chi Route and Mount", async () => {
    expect(await routesOf("golang")).toEqual([
      "GET /api/tags /api/tags TagList main.go:11",
      "GET /health/{probe} /health/{} health main.go:13",
      "GET /api/articles/ /api/articles list server/chi.go:9",
      "GET /api/articles/{slug} /api/articles/{} get server/chi.go:10",
      "GET /admin/stats /admin/stats stats server/chi.go:17",
      "POST /api/users/login /api/users/login Login users/routes.go:4",
      "GET /api/users/:id /api/users/{} Get users/routes.go:5",
    ]);
  });

  it("Rust: axum route and nest across modules, actix attributes under a scope and scope routes", async () => {
    expect(await routesOf("rust")).toEqual([
      "GET /v2/articles/{slug} /v2/articles/{} article src/actix.rs:2",
      "GET /v2/feed /v2/feed feed src/actix.rs:4",
      "GET /api/tags /api/tags tags::list src/main.rs:4",
      "POST /api/users /api/users create src/routes/users.rs:3",
      "GET /api/profiles/:username /api/profiles/{} profile src/routes/users.rs:3",
      "DELETE /api/profiles/:username /api/profiles/{} unfollow src/routes/users.rs:3",
    ]);
  });
});

describe("where each route's handler is defined", () => {
  it("in the route's file, through imports, in the package or module its qualifier names", async () => {
    expect(await handlersOf("nest")).toContain("ArticlesController.findOne src/articles/articles.controller.ts:7");
    expect(await handlersOf("next")).toContain("handler pages/api/users/[id].ts:1");
    // Imported names: `from . import views` then `views.follow`; `from .views import LoginAPIView`.
    expect(await handlersOf("django")).toEqual([
      "ProfileRetrieveAPIView conduit/apps/profiles/views.py:3",
      "views.follow conduit/apps/profiles/views.py:5",
      "LoginAPIView conduit/apps/profiles/views.py:1",
      "ArticleViewSet conduit/apps/articles/views.py:1",
      "ArticleViewSet conduit/apps/articles/views.py:1",
      "TagListView conduit/apps/articles/views.py:3",
    ]);
    expect(await handlersOf("spring")).toContain("ArticlesApi.article src/main/java/io/conduit/ArticlesApi.java:6");
    // Go: another file of the same package; a handler the repository does not define is not guessed.
    expect(await handlersOf("golang")).toEqual(["TagList main.go:15", "health main.go:16", "list -:-", "get -:-", "stats -:-", "Login users/handlers.go:3", "Get -:-"]);
    // Rust: the module the path names (`tags::list` in src/tags.rs).
    expect(await handlersOf("rust")).toEqual(["article src/actix.rs:2", "feed -:-", "tags::list src/tags.rs:1", "create -:-", "profile -:-", "unfollow -:-"]);
  });
});

describe("requests of each language, linked across the workspace", () => {
  it("Java: RestTemplate with a class constant, WebClient, Feign with a configured base URL", async () => {
    const calls = await callsOf("spring", ["nest", "next", "django", "golang"]);
    expect(calls.map((c) => [c.method, c.url, c.pattern, c.symbol, c.targets.map((t) => `${t.repo} ${t.handler} ${t.confidence}`)])).toEqual([
      ["GET", "/api/tags", "/api/tags", "TagsService.tags", ["nest TagsController.list 1", "next GET 1", "django TagListView 1", "golang TagList 1"]],
      // A wildcard method (Next.js pages, Django views) takes any request; each server's best, best first.
      ["POST", "{base}/api/users/login", "/api/users/login", "TagsService.login", ["django LoginAPIView 0.9", "golang Login 0.9", "next handler 0.8"]],
      // The Feign client's base URL is a setting: kept by name, doubted a little.
      ["GET", "{users.url}/api/profiles/{username}", "/api/profiles/{}", "UsersClient.profile", ["django ProfileRetrieveAPIView 0.8"]],
    ]);
  });

  it("Go: http.NewRequest with a method constant and a package constant, fmt.Sprintf URLs", async () => {
    const calls = await callsOf("golang", ["django"]);
    expect(calls.map((c) => [c.method, c.url, c.pattern, c.host, c.symbol, c.targets.map((t) => `${t.repo} ${t.handler} ${t.confidence}`)])).toEqual([
      ["POST", "http://auth.internal/api/users/login", "/api/users/login", "auth.internal", "Login", ["golang Login 0.9", "django LoginAPIView 0.9"]],
      ["GET", "http://auth.internal/api/profiles/{}", "/api/profiles/{}", "auth.internal", "Login", ["django ProfileRetrieveAPIView 0.8"]],
    ]);
  });

  it("Rust: reqwest with format! and a const base; a call no route serves says why", async () => {
    const calls = await callsOf("rust", []);
    expect(calls.map((c) => [c.method, c.url, c.pattern, c.symbol, c.targets.map((t) => t.handler), c.why])).toEqual([
      ["GET", "http://api.internal/api/tags", "/api/tags", "tags", ["tags::list"], null],
      ["POST", "/api/profiles/{}", "/api/profiles/{}", "follow", [], "no route for POST /api/profiles/{} (it is served for GET, DELETE)"],
    ]);
  });
});

describe("what must not go wrong", () => {
  it("a bare name is not taken from another package; routers mounted into each other many times over resolve once", async () => {
    const map = await ws.apiMap({ repos: ["edge"] });
    // b's baseURL is its own variable (from the environment), not a's constant of the same name.
    expect(map.calls.map((c) => [c.url, c.pattern, c.base])).toEqual([["{baseURL}/users", "/users", "baseURL"]]);
    expect(map.routes.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /p/p/p/p/p/p/p/p/x"]);
  });
});
