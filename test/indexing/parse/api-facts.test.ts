import { describe, expect, it } from "vitest";
import type { CodeLanguage } from "../../../src/core/types.js";
import { extractFile } from "../../../src/indexing/parse/extract.js";
import { Grammars } from "../../../src/indexing/parse/grammars.js";

const grammars = new Grammars();
const facts = (language: CodeLanguage, source: string) => extractFile(grammars.get(language)!, language, source).api;

describe("HTTP facts read at parse time (real tree-sitter)", () => {
  it("Express: routes of a router, chained mounts with and without a prefix, what is exported", () => {
    expect(facts("typescript", ["import { Router } from 'express';", "import articles from './articles';", "const api = Router().use(articles);", "export default Router().use('/api', api);", ""].join("\n"))).toEqual({
      routers: ["api", "default"],
      routes: [],
      mounts: [
        { parent: "api", prefix: null, child: "articles", line: 3 },
        { parent: "default", prefix: ["/api"], child: "api", line: 4 },
      ],
      calls: [],
      wrappers: [],
      instances: {},
      prefixes: {},
      strings: {},
      exports: { default: "default" },
    });
    const controller = facts(
      "javascript",
      ["const express = require('express');", "const router = express.Router();", "router.get('/articles/:slug', auth, getArticle);", "router.post(`/articles/${'x'}`, (req, res) => res.send());", "module.exports = router;", ""].join("\n"),
    )!;
    expect(controller.routers).toEqual(["router"]);
    expect(controller.routes).toEqual([
      { router: "router", method: "GET", path: ["/articles/:slug"], line: 3, handler: "getArticle" },
      { router: "router", method: "POST", path: ["/articles/", { dyn: true }], line: 4, handler: "", inline: [4, 4] },
    ]);
    expect(controller.exports).toEqual({ default: "router" });
  });

  it("clients: fetch with its method, axios and its instances' baseURL, superagent through a wrapper, constants", () => {
    const client = facts(
      "javascript",
      [
        "import axios from 'axios';",
        "import agent from 'superagent';",
        "const API_ROOT = 'https://api.example.com/api';",
        "const api = axios.create({ baseURL: '/api/v2' });",
        "const requests = { get: url => agent.get(`${API_ROOT}${url}`).then(r => r.body) };",
        "export const Articles = { get: slug => requests.get(`/articles/${slug}`) };",
        "export function login(email) { return fetch('/api/users/login', { method: 'POST', body: email }); }",
        "export const tags = () => axios.get(API_ROOT + '/tags');",
        "export const me = () => api.get('/user');",
        "export const raw = (u) => fetch(u);",
        "",
      ].join("\n"),
    )!;
    expect(client.strings).toEqual({ API_ROOT: "https://api.example.com/api" });
    expect(client.instances).toEqual({ api: ["/api/v2"] });
    expect(client.wrappers).toEqual([
      { name: "requests.get", method: "GET", url: [{ ref: "API_ROOT" }, { ref: "url" }], param: "url" },
      { name: "raw", method: "GET", url: [{ ref: "u" }], param: "u" },
    ]);
    expect(client.calls).toEqual([
      { client: "requests.get", method: "GET", url: ["/articles/", { ref: "slug" }], line: 6, viaWrapper: true },
      { client: "fetch", method: "POST", url: ["/api/users/login"], line: 7 },
      { client: "axios", method: "GET", url: [{ ref: "API_ROOT" }, "/tags"], line: 8 },
      { client: "api", method: "GET", url: ["/api/v2", "/user"], line: 9 },
    ]);
  });

  it("FastAPI and Flask: decorators, routers' own prefixes, include_router and register_blueprint, requests", () => {
    const fastapi = facts(
      "python",
      [
        "from fastapi import APIRouter, FastAPI",
        "import requests",
        "router = APIRouter(prefix='/items')",
        "@router.get('/{item_id}')",
        "def read_item(item_id: int):",
        "    return requests.get(f'https://stock.example.com/stock/{item_id}').json()",
        "app = FastAPI()",
        "app.include_router(router, prefix=settings.api_prefix)",
        "",
      ].join("\n"),
    )!;
    expect(fastapi.routers).toEqual(["router", "app"]);
    expect(fastapi.routes).toEqual([{ router: "router", method: "GET", path: ["/{item_id}"], line: 4, handler: "read_item" }]);
    expect(fastapi.prefixes).toEqual({ router: ["/items"] });
    expect(fastapi.mounts).toEqual([{ parent: "app", prefix: [{ ref: "settings.api_prefix" }], child: "router", line: 8 }]);
    expect(fastapi.calls).toEqual([{ client: "requests", method: "GET", url: ["https://stock.example.com/stock/", { ref: "item_id" }], line: 6 }]);
    const flask = facts(
      "python",
      ["from flask import Blueprint, Flask", "bp = Blueprint('users', __name__, url_prefix='/users')", "@bp.route('/<int:uid>', methods=['GET', 'PUT'])", "def user(uid):", "    pass", "app = Flask(__name__)", "app.register_blueprint(bp, url_prefix='/v1')", ""].join("\n"),
    )!;
    expect(flask.routes.map((r) => [r.method, r.path, r.handler])).toEqual([
      ["GET", ["/<int:uid>"], "user"],
      ["PUT", ["/<int:uid>"], "user"],
    ]);
    expect(flask.prefixes).toEqual({ bp: ["/users"] });
    // Flask's url_prefix at registration replaces the blueprint's own.
    expect(flask.mounts).toEqual([{ parent: "app", prefix: ["/v1"], child: "bp", line: 7, replaces: true }]);
  });

  it("CommonJS mounts, router.route() chains, class controllers, superagent's method first, forwarded paths", () => {
    const app = facts(
      "javascript",
      [
        "const router = require('express').Router();",
        "router.route('/books/:id').get(show).put(update);",
        "const app = require('express')();",
        "app.use('/api', require('./routes'));",
        "class Ctl { mount() { this.router.get('/ping', this.ping); } }",
        "const superagent = require('superagent');",
        "export const one = () => superagent('GET', '/api/one');",
        "export const raw = (path) => fetch(`/api${path}`, opts);",
        "",
      ].join("\n"),
    )!;
    expect(app.routes.map((r) => [r.router, r.method, r.path, r.handler])).toEqual([
      ["router", "GET", ["/books/:id"], "show"],
      ["router", "PUT", ["/books/:id"], "update"],
      ["this.router", "GET", ["/ping"], "this.ping"],
    ]);
    expect(app.mounts).toEqual([{ parent: "app", prefix: ["/api"], child: "require('./routes')", line: 4 }]);
    expect(app.calls).toEqual([{ client: "superagent", method: "GET", url: ["/api/one"], line: 7 }]);
    expect(app.wrappers).toEqual([{ name: "raw", method: null, url: ["/api", { ref: "path" }], param: "path" }]);
  });

  it("a file that says nothing about HTTP has no facts, and a lookalike is not a route", () => {
    expect(facts("python", "def f():\n    return 1\n")).toBeUndefined();
    // `cache.get(key, fallback)` is neither a router nor a client.
    expect(facts("javascript", "const cache = new Map();\nexport const f = (k) => cache.get(k, 1);\n")).toBeUndefined();
  });

  it("lookalikes in Go, Rust and JavaScript: a package's request is not a route, a map's lookup not a request", () => {
    const go = facts("go", ['package c', 'import "net/http"', "func send(body io.Reader) {", '  http.Post("http://localhost:8080/api/users", "application/json", body)', "  redisClient.Get(ctx, key)", "}", ""].join("\n"))!;
    expect(go.routes).toEqual([]);
    expect(go.calls).toEqual([{ client: "http", method: "POST", url: ["http://localhost:8080/api/users"], line: 4 }]);
    // A request whose URL starts with a parameter stays a request (only JavaScript follows wrappers).
    const wrapped = facts("go", ['package c', 'import "net/http"', "func (c *Client) get(path string) { c.httpClient.Get(c.baseURL + path) }", ""].join("\n"))!;
    expect(wrapped.wrappers).toEqual([]);
    expect(wrapped.calls.map((c) => c.url)).toEqual([[{ ref: "c.baseURL" }, { ref: "path" }]]);
    expect(facts("rust", ["use reqwest;", "fn f(&self, key: &str) { self.clients.get(key); }", ""].join("\n"))?.calls ?? []).toEqual([]);
    // Fastify's documented form: the module called at once.
    const fastify = facts("javascript", ["const fastify = require('fastify')({ logger: true });", "fastify.get('/ping', async () => 'pong');", ""].join("\n"))!;
    expect(fastify.routes.map((r) => [r.router, r.method, r.path])).toEqual([["fastify", "GET", ["/ping"]]]);
  });

  it("Django regexes: groups, character classes and classes of characters are parameters", () => {
    const django = facts("python", ["from django.urls import re_path", "urlpatterns = [", "    re_path(r'^archive/[0-9]{4}/$', archive),", "    re_path(r'^v1/(\\d+)-(\\d+)/x$', pair),", "    re_path(r'^articles/(?P<slug>[-\\w]+)/$', article),", "]", ""].join("\n"))!;
    expect(django.routes.map((r) => r.path)).toEqual([["archive/{}/"], ["v1/{}/x"], ["articles/{slug}/"]]);
  });

  it("hostile source costs little: a format string of 30,000 zeros, a method name 10,000 letters long", () => {
    const zeros = "0".repeat(30_000);
    const java = facts("java", ["import org.springframework.web.client.RestTemplate;", `class A { void f() { rest.getForObject(String.format("/x/%${zeros}d", 1), String.class); rest.exchange("/y", ${"A".repeat(10_000)}, null); } }`, ""].join("\n"))!;
    expect(java.calls.map((c) => c.method)).toEqual(["GET", null]);
  });
});
