import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../../../src/engine.js";
import type { ParsedFile } from "../../../src/core/types.js";
import { TempRepo } from "../../helpers/repo.js";
import { storeOf } from "../../helpers/store.js";

// One small fixture per language, indexed through the real pipeline (walk, worker pool, LMDB),
// then read back from the store.
const FIXTURES: Record<string, string> = {
  "py/shop.py": `import os.path, numpy as np
from ..pkg import a as b, c
from x import *

class Checkout(Base):
    """Handles checkout. More text."""

    @decorator(1)
    def apply_coupon(self, code: str) -> bool:
        """Apply a coupon code."""
        self.validate(code)
        return helper(code)

def helper(x):
    def inner():
        pass
    return os.path.join(x)
`,
  "js/cart.js": `import def, { a as b, c } from "./util";
const z = require("zz");
const { p, q: r } = require("pq");
export * from "./y";

/** Adds an item. */
export function addItem(cart, item) {
  return cart.items.push(new Item(item));
}

class Cart {
  total() { return sum(this.items); }
  clear = () => { reset(this); };
}
`,
  "ts/api.ts": `import * as fs from "node:fs";
export { x as y } from "./x";

/** Charges a card. */
export async function charge(card: Card): Promise<void> {
  await api.post(card);
}

export interface Card {
  number: string;
  validate(): boolean;
}

export type Id = string;
export enum Color { Red, Green }

export class Shop extends Base {
  // Computes the total.
  total(): number {
    return this.sum(new Price(1));
  }
}

const arrow = async (a: number) => fs.readFileSync(a);
`,
  "ts/view.tsx": `import React from "react";

export function Button({ label }: { label: string }) {
  return <button onClick={() => track(label)}>{label}</button>;
}
`,
  "java/Svc.java": `package a.b;

import java.util.List;
import java.util.*;
import static org.junit.Assert.assertEquals;

/** A service. */
public class Svc extends Base {
  /** Runs the job. */
  public void run(int x) {
    helper(x);
    this.other.go();
    new Thing<String>();
  }

  Svc() { super(); }
}

interface Runner { void f(); }
`,
  "go/server.go": `package main

import (
	"fmt"
	str "strings"
)

// Server serves requests.
type Server struct {
	port int
}

type Handler interface {
	Serve()
}

// Start starts the server.
func (s *Server) Start() error {
	fmt.Println("starting")
	return s.listen()
}

func main() {
	s := &Server{}
	s.Start()
	str.ToUpper("a")
}
`,
  "rs/point.rs": `use std::collections::{HashMap, hash_map::Entry as E};
use crate::util::*;

/// A point in space.
#[derive(Debug)]
pub struct Point {
    x: i32,
}

impl Point {
    /// Makes a point.
    pub fn new(x: i32) -> Self {
        helper();
        println!("new");
        Point::make(x)
    }
}

trait Shape {
    fn area(&self) -> f64;
}

mod inner {
    pub fn f() {}
}
`,
  "c/zz.h": `#ifndef ZZ_H
#define ZZ_H
#include "zz_errors.h"
#include <stddef.h>

/*! zz_compress() : compresses src into dst.
 *  More detail. */
ZZLIB_API size_t zz_compress(void* dst, const void* src, size_t n);
typedef struct zz_ctx_s zz_ctx;
typedef struct { int level; } zz_params;
typedef enum { zz_fast, zz_slow } zz_strategy;
int (*zz_hook)(int);
#endif
`,
  "c/zz.c": `#include "zz.h"

#define MEM_STATIC static inline
#define MAX(a, b) ((a) > (b) ? (a) : (b))

struct zz_ctx_s {
  int level;
};

MEM_STATIC size_t zz_bound(size_t n) { return n + (n >> 8); }

/* Compresses a buffer. */
size_t zz_compress(void* dst, const void* src, size_t n) {
  zz_ctx* ctx = zz_create();
  ctx->hook(MAX(n, 1));
  return zz_bound(n) + memcpy_s(dst, src, n);
}
`,
  "cpp/shop.hpp": `#pragma once
#include <vector>
#include "cpp/util.hpp"

namespace shop::pay {

/// A payment gateway.
template <typename T>
class Gateway : public Base<T>, private Logger {
 public:
  explicit Gateway(int id);
  virtual ~Gateway() = default;
  int send(const T& body) const;
  static Gateway* create() { return new Gateway(1); }
  bool operator==(const Gateway& other) const;
  bool operator<(const Gateway& other) const;
};

enum class Mode { Test, Live };
using Id = int;

}  // namespace shop::pay
`,
  "cpp/shop.cpp": `#include "shop.hpp"

FMT_BEGIN_NAMESPACE
namespace shop::pay {

FMT_CONSTEXPR Gateway::Gateway(int id) : id_(id) {}

template <typename T>
int Gateway<T>::send(const T& body) const {
  std::vector<int> v(body.size());
  auto n = util::retry<int>(3);
  return this->log(n) + helper(v) + shop::util::Clock::now();
}

}  // namespace shop::pay

template <>
int shop::pay::Gateway<std::map<int, x::Y>>::send(const std::map<int, x::Y>& body) const { return 0; }
`,
  "cs/Billing.cs": `using System;
using static System.Math;
using Json = Newtonsoft.Json;

namespace Acme.Billing
{
    /// <summary>Issues invoices for <see cref="Order"/>s.</summary>
    public partial class InvoiceService : BaseService, IInvoices
    {
        public InvoiceService(int x) : base(x) { }

        [HttpPost("invoices")]
        public Invoice Issue(Order order)
        {
            var total = Total(order);
            this.Log(total);
            base.Save();
            Acme.Util.Helper.Round<int>(total);
            return new Invoice(total);
        }

        private static decimal Total(Order o) => o.Sum;

        void Local() { int Inner(int a) => a; Inner(2); }
    }

    public interface IInvoices { Invoice Issue(Order order); }
    public record Money(decimal Amount);
    public struct Point { }
    public enum Color { Red }
    public delegate void Handler(int x);
}
`,
  "cs/Other.cs": `namespace Acme.Other;

class Report : Acme.Billing.InvoiceService
{
    void Print() { }
}
`,
  "rb/invoice_service.rb": `require 'json'
require_relative 'billing/invoice'

module Acme
  module Billing
    # Issues invoices for orders.
    class InvoiceService < BaseService
      include Loggable
      extend Forwardable

      def initialize(repo)
        @repo = repo
      end

      def issue(order)
        total = compute(order)
        self.log(total)
        Util::Helper.round(total)
        invoice = Acme::Invoice.new(total)
        save!
        validate
        private_helper
        total
      end

      # Builds one.
      def self.build = new(nil)

      def reset
        clear_cache
      end

      private

      def compute(order) = order.sum
    end
  end
end

class Acme::Billing::Invoice; end

def top_helper(x)
  x
end

setup
`,
  "sh/build.sh": `#!/usr/bin/env bash
set -euo pipefail
source ./lib/common.sh
. "$(dirname "$0")/util.sh"

# Builds the project.
build() {
  log "building"
  helper_fn arg | grep x
  local out=$(compute 1)
  if check; then deploy; fi
}

function deploy {
  echo done
}

build "$@"
`,
  "php/UserController.php": `<?php
namespace App\\Http\\Controllers;

use App\\Models\\User;
use App\\Services\\{Billing, Mailer as Mail};
use function App\\Support\\helper;
require_once __DIR__ . '/../bootstrap.php';
include 'legacy/functions.php';

/**
 * Handles users.
 */
class UserController extends Controller implements HasRoutes
{
    use Loggable;

    public function __construct(private Billing \$billing) {}

    public function store(Request \$request): Response
    {
        \$user = User::create(\$request->all());
        \$this->billing->charge(\$user);
        \$this->notify(\$user);
        parent::boot();
        self::audit();
        helper(1);
        \\App\\Support\\other();
        return new Response(\$user?->id);
    }
}
interface HasRoutes { public function routes(): array; }
trait Loggable { function log() {} }
enum Status: string { case Active = 'a'; }
function top_level(\$x) { return strlen(\$x); }
`,
  "php/two_namespaces.php": `<?php
namespace A;

function f() {}

namespace B;

function g() {}
`,
  "kt/StripeGateway.kt": `package com.acme.shop

import com.acme.core.Gateway
import com.acme.util.*
import com.acme.log.Logger as Log

/** Charges cards. */
class StripeGateway(private val key: String) : Gateway(), Closeable {
    fun charge(amount: Int): Int {
        val n = limit(amount)
        this.send(n)
        super.send(n)
        Log.info("x")
        return Retry.run { send(n) }
    }

    companion object {
        fun create(): StripeGateway = StripeGateway("k")
    }
}

object Retry { fun run(f: () -> Int) = f() }
interface Payments { fun pay() }
enum class Mode { TEST, LIVE }
data class Money(val amount: Int)
typealias Id = String
fun String.shout(): String = uppercase()
fun topLevel() = StripeGateway.create().charge(1)
`,
  "scala/StripeGateway.scala": `package com.acme.shop

import com.acme.core.Gateway
import com.acme.util._
import com.acme.log.{Logger => Log, Level}
import scala.collection.mutable

/** Charges cards. */
class StripeGateway(key: String) extends Gateway with Closeable {
  def charge(amount: Int): Int = {
    val n = limit(amount)
    this.send(n)
    super.send(n)
    Log.info("x")
    Retry.run(send(n))
  }
}

object StripeGateway {
  def create(): StripeGateway = new StripeGateway("k")
}

trait Payments { def pay(): Unit }
case class Money(amount: Int)
enum Mode { case Test, Live }
type Id = String
def topLevel() = StripeGateway.create().charge(1)
`,
  "swift/StripeGateway.swift": `import Foundation
@testable import ShopKit
import struct Core.Money

/// Charges cards.
/// Retries on timeouts.
public final class StripeGateway: Gateway, Sendable {
    var name: String { "stripe" }

    init(key: String) {
        super.init()
    }

    func charge(_ amount: Int) async throws -> Int {
        let n = limit(amount)
        self.send(n)
        Log.info("x")
        Core.Retry.run { send(n) }
        return items[n]
    }

    static func create() -> StripeGateway { StripeGateway(key: "k") }
}

struct Point<T>: Equatable { mutating func move() {} }
enum Mode: String { case test, live }
protocol Payments { func pay() }
extension StripeGateway: Payments { func pay() { charge(1) } }
actor Ledger { func record() {} }
typealias Id = String
func topLevel() { StripeGateway.create().pay() }
`,
  "swift/Lock.swift": `struct Lock {
    #if canImport(Darwin)
    typealias Primitive = os_unfair_lock
    #else
    typealias Primitive = pthread_mutex_t
    #endif

    static func == (a: Lock, b: Lock) -> Bool { true }
    func take() {
        let b = Box<Int>()
        x(.make())
    }
}

extension Outer.Inner: Equatable {
    func reset() {}
}
`,
};

type Sym = [kind: string, qualifiedName: string, start: number, end: number, parent: string | null];
type Call = [caller: string | null, callee: string, receiver: string, line: number];

function symbols(p: ParsedFile): Sym[] {
  return p.symbols.map((s) => [s.kind, s.qualifiedName, s.startLine, s.endLine, s.parent >= 0 ? p.symbols[s.parent]!.qualifiedName : null]);
}
function calls(p: ParsedFile): Call[] {
  return p.calls.map((c) => [c.caller >= 0 ? p.symbols[c.caller]!.qualifiedName : null, c.callee, c.receiver, c.line]);
}

describe("extraction per language (through the index)", () => {
  let repo: TempRepo;
  let engine: Engine;
  const parsed = (path: string): ParsedFile => {
    const p = storeOf(engine)!.parse.parsed(path);
    if (!p) throw new Error(`no parse result for ${path}`);
    return p;
  };

  beforeAll(async () => {
    repo = TempRepo.create(FIXTURES, { git: true });
    engine = new Engine(repo.root, { jobs: 1, git: false });
    const stats = await engine.index();
    expect(stats.files.parsed).toBe(Object.keys(FIXTURES).length);
  });
  afterAll(async () => {
    await engine.close();
    repo.dispose();
  });

  it("python: classes, methods, nested functions, decorators, docstrings", () => {
    const p = parsed("py/shop.py");
    expect(symbols(p)).toEqual([
      ["class", "Checkout", 5, 12, null],
      ["method", "Checkout.apply_coupon", 8, 12, "Checkout"],
      ["function", "helper", 14, 17, null],
      ["function", "helper.inner", 15, 16, "helper"],
    ]);
    expect(p.symbols[0]).toMatchObject({ signature: "class Checkout(Base)", doc: "Handles checkout." });
    expect(p.symbols[1]).toMatchObject({ signature: "def apply_coupon(self, code: str) -> bool", doc: "Apply a coupon code." });
    expect(calls(p)).toEqual([
      ["Checkout", "decorator", "", 8],
      ["Checkout.apply_coupon", "validate", "self", 11],
      ["Checkout.apply_coupon", "helper", "", 12],
      ["helper", "join", "os.path", 17],
    ]);
    expect(p.imports).toEqual([
      { module: "os.path", names: [], alias: "", kind: "import", line: 1 },
      { module: "numpy", names: [], alias: "np", kind: "import", line: 1 },
      { module: "..pkg", names: [{ name: "a", alias: "b" }, { name: "c", alias: "" }], alias: "", kind: "import", line: 2 },
      { module: "x", names: [{ name: "*", alias: "" }], alias: "", kind: "import", line: 3 },
    ]);
  });

  it("javascript: functions, classes, field arrows, require and re-exports", () => {
    const p = parsed("js/cart.js");
    expect(symbols(p)).toEqual([
      ["function", "addItem", 7, 9, null],
      ["class", "Cart", 11, 14, null],
      ["method", "Cart.total", 12, 12, "Cart"],
      ["method", "Cart.clear", 13, 13, "Cart"],
    ]);
    expect(p.symbols[0]).toMatchObject({ signature: "function addItem(cart, item)", doc: "Adds an item." });
    expect(calls(p)).toEqual([
      [null, "require", "", 2],
      [null, "require", "", 3],
      ["addItem", "push", "cart.items", 8],
      ["addItem", "Item", "", 8],
      ["Cart.total", "sum", "", 12],
      ["Cart.clear", "reset", "", 13],
    ]);
    expect(p.imports).toEqual([
      { module: "./util", names: [{ name: "default", alias: "def" }, { name: "a", alias: "b" }, { name: "c", alias: "" }], alias: "", kind: "import", line: 1 },
      { module: "zz", names: [], alias: "z", kind: "require", line: 2 },
      { module: "pq", names: [{ name: "p", alias: "" }, { name: "q", alias: "r" }], alias: "", kind: "require", line: 3 },
      { module: "./y", names: [{ name: "*", alias: "" }], alias: "", kind: "reexport", line: 4 },
    ]);
  });

  it("typescript: interfaces, types, enums, classes, arrow functions", () => {
    const p = parsed("ts/api.ts");
    expect(symbols(p)).toEqual([
      ["function", "charge", 5, 7, null],
      ["interface", "Card", 9, 12, null],
      ["method", "Card.validate", 11, 11, "Card"],
      ["type", "Id", 14, 14, null],
      ["enum", "Color", 15, 15, null],
      ["class", "Shop", 17, 22, null],
      ["method", "Shop.total", 19, 21, "Shop"],
      ["function", "arrow", 24, 24, null],
    ]);
    expect(p.symbols[0]).toMatchObject({ signature: "async function charge(card: Card): Promise<void>", doc: "Charges a card." });
    expect(p.symbols[6]).toMatchObject({ doc: "Computes the total." });
    expect(calls(p)).toEqual([
      ["charge", "post", "api", 6],
      ["Shop.total", "sum", "this", 20],
      ["Shop.total", "Price", "", 20],
      ["arrow", "readFileSync", "fs", 24],
    ]);
    expect(p.imports).toEqual([
      { module: "node:fs", names: [], alias: "fs", kind: "import", line: 1 },
      { module: "./x", names: [{ name: "x", alias: "y" }], alias: "", kind: "reexport", line: 2 },
    ]);
  });

  it("tsx: components and calls inside JSX", () => {
    const p = parsed("ts/view.tsx");
    expect(symbols(p)).toEqual([["function", "Button", 3, 5, null]]);
    expect(calls(p)).toEqual([["Button", "track", "", 4]]);
    expect(p.imports).toEqual([{ module: "react", names: [{ name: "default", alias: "React" }], alias: "", kind: "import", line: 1 }]);
  });

  it("java: classes, constructors, interfaces, static and wildcard imports", () => {
    const p = parsed("java/Svc.java");
    expect(symbols(p)).toEqual([
      ["class", "Svc", 8, 17, null],
      ["method", "Svc.run", 10, 14, "Svc"],
      ["method", "Svc.Svc", 16, 16, "Svc"],
      ["interface", "Runner", 19, 19, null],
      ["method", "Runner.f", 19, 19, "Runner"],
    ]);
    expect(p.symbols[1]).toMatchObject({ signature: "public void run(int x)", doc: "Runs the job." });
    expect(calls(p)).toEqual([
      ["Svc.run", "helper", "", 11],
      ["Svc.run", "go", "this.other", 12],
      ["Svc.run", "Thing", "", 13],
    ]);
    expect(p.imports).toEqual([
      { module: "java.util", names: [{ name: "List", alias: "" }], alias: "", kind: "import", line: 3 },
      { module: "java.util", names: [{ name: "*", alias: "" }], alias: "", kind: "import", line: 4 },
      { module: "org.junit.Assert", names: [{ name: "assertEquals", alias: "" }], alias: "", kind: "import", line: 5 },
    ]);
  });

  it("go: structs, interfaces, methods qualified by receiver", () => {
    const p = parsed("go/server.go");
    expect(symbols(p)).toEqual([
      ["struct", "Server", 9, 11, null],
      ["interface", "Handler", 13, 15, null],
      ["method", "Server.Start", 18, 21, null],
      ["function", "main", 23, 27, null],
    ]);
    expect(p.symbols[0]).toMatchObject({ doc: "Server serves requests." });
    expect(p.symbols[2]).toMatchObject({ signature: "func (s *Server) Start() error", doc: "Start starts the server." });
    expect(calls(p)).toEqual([
      ["Server.Start", "Println", "fmt", 19],
      ["Server.Start", "listen", "s", 20],
      ["main", "Start", "s", 25],
      ["main", "ToUpper", "str", 26],
    ]);
    expect(p.imports).toEqual([
      { module: "fmt", names: [], alias: "", kind: "import", line: 4 },
      { module: "strings", names: [], alias: "str", kind: "import", line: 5 },
    ]);
  });

  it("rust: structs with attributes, impl methods, traits, modules, macros, use trees", () => {
    const p = parsed("rs/point.rs");
    expect(symbols(p)).toEqual([
      ["struct", "Point", 5, 8, null],
      ["impl", "Point", 10, 17, null],
      ["method", "Point.new", 12, 16, "Point"],
      ["trait", "Shape", 19, 21, null],
      ["method", "Shape.area", 20, 20, "Shape"],
      ["module", "inner", 23, 25, null],
      ["function", "inner.f", 24, 24, "inner"],
    ]);
    expect(p.symbols[0]).toMatchObject({ doc: "A point in space." });
    expect(p.symbols[2]).toMatchObject({ signature: "pub fn new(x: i32) -> Self", doc: "Makes a point." });
    expect(calls(p)).toEqual([
      ["Point.new", "helper", "", 13],
      ["Point.new", "println!", "", 14],
      ["Point.new", "make", "Point", 15],
    ]);
    expect(p.imports).toEqual([
      { module: "std::collections", names: [{ name: "HashMap", alias: "" }], alias: "", kind: "import", line: 1 },
      { module: "std::collections::hash_map", names: [{ name: "Entry", alias: "E" }], alias: "", kind: "import", line: 1 },
      { module: "crate::util", names: [{ name: "*", alias: "" }], alias: "", kind: "import", line: 2 },
    ]);
  });

  it("c: prototypes as declarations, typedef'd structs and enums, macros, includes, attribute macros", () => {
    const h = parsed("c/zz.h");
    expect(symbols(h)).toEqual([
      ["macro", "ZZ_H", 2, 2, null],
      ["function", "zz_compress", 8, 8, null],
      ["type", "zz_ctx", 9, 9, null],
      ["struct", "zz_params", 10, 10, null],
      ["enum", "zz_strategy", 11, 11, null],
    ]);
    // ZZLIB_API is a macro the parser cannot expand: blanked, it is not read as the return type.
    expect(h.symbols[1]).toMatchObject({ signature: "size_t zz_compress(void* dst, const void* src, size_t n)", doc: "zz_compress() : compresses src into dst.", decl: true });
    expect(h.imports).toEqual([
      { module: "zz_errors.h", names: [{ name: "*", alias: "" }], alias: "", kind: "include", line: 3 },
      { module: "stddef.h", names: [{ name: "*", alias: "" }], alias: "", kind: "system", line: 4 },
    ]);
    const c = parsed("c/zz.c");
    expect(symbols(c)).toEqual([
      ["macro", "MEM_STATIC", 3, 3, null],
      ["macro", "MAX", 4, 4, null],
      ["struct", "zz_ctx_s", 6, 8, null],
      ["function", "zz_bound", 10, 10, null],
      ["function", "zz_compress", 13, 17, null],
    ]);
    expect(c.symbols[4]).toMatchObject({ signature: "size_t zz_compress(void* dst, const void* src, size_t n)", doc: "Compresses a buffer." });
    expect(c.symbols[4]!.decl).toBeUndefined();
    expect(calls(c)).toEqual([
      ["zz_compress", "zz_create", "", 14],
      ["zz_compress", "hook", "ctx", 15],
      ["zz_compress", "MAX", "", 15],
      ["zz_compress", "zz_bound", "", 16],
      ["zz_compress", "memcpy_s", "", 16],
    ]);
  });

  it("c++: namespaces, templates, classes with bases, in-class declarations, out-of-class methods, qualified calls", () => {
    const h = parsed("cpp/shop.hpp");
    expect(symbols(h)).toEqual([
      ["module", "shop.pay", 5, 22, null],
      ["class", "shop.pay.Gateway", 8, 17, "shop.pay"],
      ["method", "shop.pay.Gateway.Gateway", 11, 11, "shop.pay.Gateway"],
      ["method", "shop.pay.Gateway.~Gateway", 12, 12, "shop.pay.Gateway"],
      ["method", "shop.pay.Gateway.send", 13, 13, "shop.pay.Gateway"],
      ["method", "shop.pay.Gateway.create", 14, 14, "shop.pay.Gateway"],
      ["method", "shop.pay.Gateway.operator==", 15, 15, "shop.pay.Gateway"],
      ["method", "shop.pay.Gateway.operator<", 16, 16, "shop.pay.Gateway"],
      ["enum", "shop.pay.Mode", 19, 19, "shop.pay"],
      ["type", "shop.pay.Id", 20, 20, "shop.pay"],
    ]);
    expect(h.symbols[1]).toMatchObject({ signature: "class Gateway : public Base<T>, private Logger", doc: "A payment gateway.", bases: ["Base", "Logger"] });
    expect(h.symbols[4]).toMatchObject({ signature: "int send(const T& body) const", decl: true });
    expect(h.symbols[5]!.decl).toBeUndefined();
    expect(calls(h)).toEqual([["shop.pay.Gateway.create", "Gateway", "", 14]]);
    expect(h.imports.map((i) => [i.module, i.kind])).toEqual([["vector", "system"], ["cpp/util.hpp", "include"]]);
    const cpp = parsed("cpp/shop.cpp");
    expect(symbols(cpp)).toEqual([
      ["module", "shop.pay", 4, 15, null],
      ["method", "shop.pay.Gateway.Gateway", 6, 6, "shop.pay"],
      ["method", "shop.pay.Gateway.send", 8, 13, "shop.pay"],
      // Template arguments, `::` and all, are no part of the qualified name.
      ["method", "shop.pay.Gateway.send", 17, 18, null],
    ]);
    expect(calls(cpp)).toEqual([
      ["shop.pay.Gateway.send", "size", "body", 10],
      ["shop.pay.Gateway.send", "retry", "util::", 11],
      ["shop.pay.Gateway.send", "log", "this", 12],
      ["shop.pay.Gateway.send", "helper", "", 12],
      ["shop.pay.Gateway.send", "now", "shop::util::Clock::", 12],
    ]);
  });

  it("c#: namespaces block and file-scoped, types, methods, local functions, usings, XML docs", () => {
    const cs = parsed("cs/Billing.cs");
    expect(symbols(cs)).toEqual([
      ["module", "Acme.Billing", 5, 32, null],
      ["class", "Acme.Billing.InvoiceService", 8, 25, "Acme.Billing"],
      ["method", "Acme.Billing.InvoiceService.InvoiceService", 10, 10, "Acme.Billing.InvoiceService"],
      ["method", "Acme.Billing.InvoiceService.Issue", 12, 20, "Acme.Billing.InvoiceService"],
      ["method", "Acme.Billing.InvoiceService.Total", 22, 22, "Acme.Billing.InvoiceService"],
      ["method", "Acme.Billing.InvoiceService.Local", 24, 24, "Acme.Billing.InvoiceService"],
      ["function", "Acme.Billing.InvoiceService.Local.Inner", 24, 24, "Acme.Billing.InvoiceService.Local"],
      ["interface", "Acme.Billing.IInvoices", 27, 27, "Acme.Billing"],
      ["method", "Acme.Billing.IInvoices.Issue", 27, 27, "Acme.Billing.IInvoices"],
      ["class", "Acme.Billing.Money", 28, 28, "Acme.Billing"],
      ["struct", "Acme.Billing.Point", 29, 29, "Acme.Billing"],
      ["enum", "Acme.Billing.Color", 30, 30, "Acme.Billing"],
      ["type", "Acme.Billing.Handler", 31, 31, "Acme.Billing"],
    ]);
    expect(cs.symbols[1]).toMatchObject({ signature: "public partial class InvoiceService : BaseService, IInvoices", doc: "Issues invoices for Orders.", bases: ["BaseService", "IInvoices"] });
    expect(cs.symbols[3]!.signature).toBe('[HttpPost("invoices")] public Invoice Issue(Order order)');
    expect(calls(cs)).toEqual([
      ["Acme.Billing.InvoiceService.Issue", "Total", "", 15],
      ["Acme.Billing.InvoiceService.Issue", "Log", "this", 16],
      ["Acme.Billing.InvoiceService.Issue", "Save", "base", 17],
      // A receiver written with its namespace is its type's bare name.
      ["Acme.Billing.InvoiceService.Issue", "Round", "Helper", 18],
      ["Acme.Billing.InvoiceService.Issue", "Invoice", "", 19],
      ["Acme.Billing.InvoiceService.Local", "Inner", "", 24],
    ]);
    expect(cs.imports).toEqual([
      { module: "System", names: [], alias: "", kind: "using", line: 1 },
      { module: "System.Math", names: [{ name: "*", alias: "" }], alias: "", kind: "using", line: 2 },
      { module: "Newtonsoft.Json", names: [], alias: "Json", kind: "using", line: 3 },
    ]);
    // `namespace Acme.Other;` holds the rest of its file.
    expect(symbols(parsed("cs/Other.cs"))).toEqual([
      ["module", "Acme.Other", 1, 6, null],
      ["class", "Acme.Other.Report", 3, 6, "Acme.Other"],
      ["method", "Acme.Other.Report.Print", 5, 5, "Acme.Other.Report"],
    ]);
    expect(parsed("cs/Other.cs").symbols[1]!.bases).toEqual(["InvoiceService"]);
  });

  it("ruby: modules, classes with superclass and mixins, singleton methods, bare calls, requires", () => {
    const rb = parsed("rb/invoice_service.rb");
    expect(symbols(rb)).toEqual([
      ["module", "Acme", 4, 38, null],
      ["module", "Acme.Billing", 5, 37, "Acme"],
      ["class", "Acme.Billing.InvoiceService", 7, 36, "Acme.Billing"],
      ["method", "Acme.Billing.InvoiceService.initialize", 11, 13, "Acme.Billing.InvoiceService"],
      ["method", "Acme.Billing.InvoiceService.issue", 15, 24, "Acme.Billing.InvoiceService"],
      ["method", "Acme.Billing.InvoiceService.build", 27, 27, "Acme.Billing.InvoiceService"],
      ["method", "Acme.Billing.InvoiceService.reset", 29, 31, "Acme.Billing.InvoiceService"],
      ["method", "Acme.Billing.InvoiceService.compute", 35, 35, "Acme.Billing.InvoiceService"],
      // `class A::B::C` is qualified by the scope it is written with.
      ["class", "Acme.Billing.Invoice", 40, 40, null],
      ["function", "top_helper", 42, 44, null],
    ]);
    expect(rb.symbols[2]).toMatchObject({ signature: "class InvoiceService < BaseService", doc: "Issues invoices for orders.", bases: ["BaseService", "Loggable", "Forwardable"] });
    expect(rb.symbols[1]!.signature).toBe("module Billing");
    expect(rb.symbols[5]).toMatchObject({ signature: "def self.build", doc: "Builds one." });
    expect(calls(rb)).toEqual([
      ["Acme.Billing.InvoiceService.issue", "compute", "", 16],
      ["Acme.Billing.InvoiceService.issue", "log", "self", 17],
      ["Acme.Billing.InvoiceService.issue", "round", "Helper", 18],
      // `Acme::Invoice.new` constructs the class.
      ["Acme.Billing.InvoiceService.issue", "Invoice", "", 19],
      ["Acme.Billing.InvoiceService.issue", "save!", "", 20],
      // Bare identifiers are calls, unless the method assigns them (`total`); a method without parameters has no locals of them.
      ["Acme.Billing.InvoiceService.issue", "validate", "", 21],
      ["Acme.Billing.InvoiceService.issue", "private_helper", "", 22],
      ["Acme.Billing.InvoiceService.build", "new", "", 27],
      ["Acme.Billing.InvoiceService.reset", "clear_cache", "", 30],
      ["Acme.Billing.InvoiceService.compute", "sum", "order", 35],
      // At the top of a script too.
      [null, "setup", "", 46],
    ]);
    expect(rb.imports).toEqual([
      { module: "json", names: [], alias: "", kind: "require", line: 1 },
      { module: "./billing/invoice", names: [], alias: "", kind: "require", line: 2 },
    ]);
  });

  it("bash: functions both ways, commands as calls without builtins, source and dot", () => {
    const sh = parsed("sh/build.sh");
    expect(symbols(sh)).toEqual([
      ["function", "build", 7, 12, null],
      ["function", "deploy", 14, 16, null],
    ]);
    expect(sh.symbols[0]).toMatchObject({ signature: "build()", doc: "Builds the project." });
    expect(calls(sh)).toEqual([
      [null, "dirname", "", 4],
      ["build", "log", "", 8],
      ["build", "helper_fn", "", 9],
      ["build", "grep", "", 9],
      ["build", "compute", "", 10],
      ["build", "check", "", 11],
      ["build", "deploy", "", 11],
      [null, "build", "", 18],
    ]);
    expect(sh.imports.map((i) => [i.module, i.kind, i.line])).toEqual([["./lib/common.sh", "require", 3], ["./util.sh", "require", 4]]);
  });

  it("php: namespaces, classes with bases and traits, static and member calls, use groups, requires", () => {
    const php = parsed("php/UserController.php");
    expect(symbols(php)).toEqual([
      ["module", "App.Http.Controllers", 2, 34, null],
      ["class", "App.Http.Controllers.UserController", 13, 30, "App.Http.Controllers"],
      ["method", "App.Http.Controllers.UserController.__construct", 17, 17, "App.Http.Controllers.UserController"],
      ["method", "App.Http.Controllers.UserController.store", 19, 29, "App.Http.Controllers.UserController"],
      ["interface", "App.Http.Controllers.HasRoutes", 31, 31, "App.Http.Controllers"],
      ["method", "App.Http.Controllers.HasRoutes.routes", 31, 31, "App.Http.Controllers.HasRoutes"],
      ["trait", "App.Http.Controllers.Loggable", 32, 32, "App.Http.Controllers"],
      ["method", "App.Http.Controllers.Loggable.log", 32, 32, "App.Http.Controllers.Loggable"],
      ["enum", "App.Http.Controllers.Status", 33, 33, "App.Http.Controllers"],
      ["function", "App.Http.Controllers.top_level", 34, 34, "App.Http.Controllers"],
    ]);
    expect(php.symbols[1]).toMatchObject({ signature: "class UserController extends Controller implements HasRoutes", doc: "Handles users.", bases: ["Controller", "HasRoutes", "Loggable"] });
    expect(calls(php)).toEqual([
      ["App.Http.Controllers.UserController.store", "create", "User", 21],
      ["App.Http.Controllers.UserController.store", "all", "$request", 21],
      ["App.Http.Controllers.UserController.store", "charge", "$this->billing", 22],
      ["App.Http.Controllers.UserController.store", "notify", "$this", 23],
      ["App.Http.Controllers.UserController.store", "boot", "parent", 24],
      ["App.Http.Controllers.UserController.store", "audit", "self", 25],
      ["App.Http.Controllers.UserController.store", "helper", "", 26],
      // `\App\Support\other()`: the bare name.
      ["App.Http.Controllers.UserController.store", "other", "", 27],
      ["App.Http.Controllers.UserController.store", "Response", "", 28],
      ["App.Http.Controllers.top_level", "strlen", "", 34],
    ]);
    expect(php.imports.map((i) => [i.module, i.names.map((n) => (n.alias ? `${n.name} as ${n.alias}` : n.name)).join(", "), i.kind])).toEqual([
      ["App.Models", "User", "import"],
      ["App.Services", "Billing, Mailer as Mail", "import"],
      ["App.Support", "helper", "import"],
      ["./../bootstrap.php", "", "require"],
      ["legacy/functions.php", "", "require"],
    ]);
  });

  it("php: several file-scoped namespaces in one file, each ending where the next starts", () => {
    expect(symbols(parsed("php/two_namespaces.php"))).toEqual([
      ["module", "A", 2, 4, null],
      ["function", "A.f", 4, 4, "A"],
      ["module", "B", 6, 8, null],
      ["function", "B.g", 8, 8, "B"],
    ]);
  });

  it("kotlin: the package, classes, objects, interfaces, enums, companions, extension functions, imports", () => {
    const kt = parsed("kt/StripeGateway.kt");
    expect(symbols(kt)).toEqual([
      ["module", "com.acme.shop", 1, 28, null],
      ["class", "com.acme.shop.StripeGateway", 8, 20, "com.acme.shop"],
      ["method", "com.acme.shop.StripeGateway.charge", 9, 15, "com.acme.shop.StripeGateway"],
      // A companion object's functions are its class's.
      ["method", "com.acme.shop.StripeGateway.create", 18, 18, "com.acme.shop.StripeGateway"],
      ["class", "com.acme.shop.Retry", 22, 22, "com.acme.shop"],
      ["method", "com.acme.shop.Retry.run", 22, 22, "com.acme.shop.Retry"],
      ["interface", "com.acme.shop.Payments", 23, 23, "com.acme.shop"],
      ["method", "com.acme.shop.Payments.pay", 23, 23, "com.acme.shop.Payments"],
      ["enum", "com.acme.shop.Mode", 24, 24, "com.acme.shop"],
      ["class", "com.acme.shop.Money", 25, 25, "com.acme.shop"],
      ["type", "com.acme.shop.Id", 26, 26, "com.acme.shop"],
      // An extension function: a method, of its package.
      ["method", "com.acme.shop.shout", 27, 27, "com.acme.shop"],
      ["function", "com.acme.shop.topLevel", 28, 28, "com.acme.shop"],
    ]);
    expect(kt.symbols[1]).toMatchObject({ signature: "class StripeGateway(private val key: String) : Gateway(), Closeable", doc: "Charges cards.", bases: ["Gateway", "Closeable"] });
    expect(kt.symbols[3]!.signature).toBe("fun create(): StripeGateway");
    expect(calls(kt)).toEqual([
      ["com.acme.shop.StripeGateway.charge", "limit", "", 10],
      ["com.acme.shop.StripeGateway.charge", "send", "this", 11],
      ["com.acme.shop.StripeGateway.charge", "send", "super", 12],
      ["com.acme.shop.StripeGateway.charge", "info", "Log", 13],
      ["com.acme.shop.StripeGateway.charge", "run", "Retry", 14],
      ["com.acme.shop.StripeGateway.charge", "send", "", 14],
      ["com.acme.shop.StripeGateway.create", "StripeGateway", "", 18],
      ["com.acme.shop.Retry.run", "f", "", 22],
      ["com.acme.shop.shout", "uppercase", "", 27],
      ["com.acme.shop.topLevel", "create", "StripeGateway", 28],
      ["com.acme.shop.topLevel", "charge", "StripeGateway.create()", 28],
    ]);
    expect(kt.imports).toEqual([
      { module: "com.acme.core", names: [{ name: "Gateway", alias: "" }], alias: "", kind: "import", line: 3 },
      { module: "com.acme.util", names: [{ name: "*", alias: "" }], alias: "", kind: "import", line: 4 },
      { module: "com.acme.log", names: [{ name: "Logger", alias: "Log" }], alias: "", kind: "import", line: 5 },
    ]);
  });

  it("scala: the package, classes and companion objects, traits, enums, types, selector imports", () => {
    const sc = parsed("scala/StripeGateway.scala");
    expect(symbols(sc)).toEqual([
      ["module", "com.acme.shop", 1, 27, null],
      ["class", "com.acme.shop.StripeGateway", 9, 17, "com.acme.shop"],
      ["method", "com.acme.shop.StripeGateway.charge", 10, 16, "com.acme.shop.StripeGateway"],
      // The companion object: the class's other piece, qualified alike.
      ["class", "com.acme.shop.StripeGateway", 19, 21, "com.acme.shop"],
      ["method", "com.acme.shop.StripeGateway.create", 20, 20, "com.acme.shop.StripeGateway"],
      ["trait", "com.acme.shop.Payments", 23, 23, "com.acme.shop"],
      ["method", "com.acme.shop.Payments.pay", 23, 23, "com.acme.shop.Payments"],
      ["class", "com.acme.shop.Money", 24, 24, "com.acme.shop"],
      ["enum", "com.acme.shop.Mode", 25, 25, "com.acme.shop"],
      ["type", "com.acme.shop.Id", 26, 26, "com.acme.shop"],
      ["function", "com.acme.shop.topLevel", 27, 27, "com.acme.shop"],
    ]);
    expect(sc.symbols[1]).toMatchObject({ signature: "class StripeGateway(key: String) extends Gateway with Closeable", doc: "Charges cards.", bases: ["Gateway", "Closeable"] });
    expect(sc.symbols[4]!.signature).toBe("def create(): StripeGateway");
    expect(calls(sc)).toEqual([
      ["com.acme.shop.StripeGateway.charge", "limit", "", 11],
      ["com.acme.shop.StripeGateway.charge", "send", "this", 12],
      ["com.acme.shop.StripeGateway.charge", "send", "super", 13],
      ["com.acme.shop.StripeGateway.charge", "info", "Log", 14],
      ["com.acme.shop.StripeGateway.charge", "run", "Retry", 15],
      ["com.acme.shop.StripeGateway.charge", "send", "", 15],
      ["com.acme.shop.StripeGateway.create", "StripeGateway", "", 20],
      ["com.acme.shop.topLevel", "create", "StripeGateway", 27],
      ["com.acme.shop.topLevel", "charge", "StripeGateway.create()", 27],
    ]);
    expect(sc.imports.map((i) => [i.module, i.names.map((n) => (n.alias ? `${n.name} as ${n.alias}` : n.name)).join(", ")])).toEqual([
      ["com.acme.core", "Gateway"],
      ["com.acme.util", "*"],
      ["com.acme.log", "Logger as Log, Level"],
      ["scala.collection", "mutable"],
    ]);
  });

  it("swift: classes, structs, enums, protocols, extensions as the type's other pieces, actors, initializers, computed properties, imports", () => {
    const sw = parsed("swift/StripeGateway.swift");
    expect(symbols(sw)).toEqual([
      ["class", "StripeGateway", 7, 23, null],
      // A computed property is code: a getter.
      ["method", "StripeGateway.name", 8, 8, "StripeGateway"],
      ["method", "StripeGateway.init", 10, 12, "StripeGateway"],
      ["method", "StripeGateway.charge", 14, 20, "StripeGateway"],
      ["method", "StripeGateway.create", 22, 22, "StripeGateway"],
      ["struct", "Point", 25, 25, null],
      ["method", "Point.move", 25, 25, "Point"],
      ["enum", "Mode", 26, 26, null],
      ["interface", "Payments", 27, 27, null],
      ["method", "Payments.pay", 27, 27, "Payments"],
      // An extension: another piece of its type, its methods qualified by the type.
      ["impl", "StripeGateway", 28, 28, null],
      ["method", "StripeGateway.pay", 28, 28, "StripeGateway"],
      ["class", "Ledger", 29, 29, null],
      ["method", "Ledger.record", 29, 29, "Ledger"],
      ["type", "Id", 30, 30, null],
      ["function", "topLevel", 31, 31, null],
    ]);
    expect(sw.symbols[0]).toMatchObject({ signature: "public final class StripeGateway: Gateway, Sendable", doc: "Charges cards.", bases: ["Gateway", "Sendable"] });
    expect(sw.symbols[3]!.signature).toBe("func charge(_ amount: Int) async throws -> Int");
    expect(sw.symbols[5]).toMatchObject({ signature: "struct Point<T>: Equatable", bases: ["Equatable"] });
    expect(calls(sw)).toEqual([
      ["StripeGateway.init", "init", "super", 11],
      ["StripeGateway.charge", "limit", "", 15],
      ["StripeGateway.charge", "send", "self", 16],
      ["StripeGateway.charge", "info", "Log", 17],
      // `Core.Retry`: the type's bare name; a trailing closure is the call's argument. A subscript is no call.
      ["StripeGateway.charge", "run", "Retry", 18],
      ["StripeGateway.charge", "send", "", 18],
      ["StripeGateway.create", "StripeGateway", "", 22],
      ["StripeGateway.pay", "charge", "", 28],
      ["topLevel", "create", "StripeGateway", 31],
      ["topLevel", "pay", "StripeGateway.create()", 31],
    ]);
    expect(sw.imports).toEqual([
      { module: "Foundation", names: [], alias: "", kind: "import", line: 1 },
      { module: "ShopKit", names: [], alias: "", kind: "import", line: 2 },
      { module: "Core", names: [{ name: "Money", alias: "" }], alias: "", kind: "import", line: 3 },
    ]);
  });

  it("swift: members under #if still the type's, operators, extensions of nested types, implicit members and generic construction", () => {
    const sw = parsed("swift/Lock.swift");
    expect(symbols(sw)).toEqual([
      ["struct", "Lock", 1, 13, null],
      // Both branches: each is the type's on some platform.
      ["type", "Lock.Primitive", 3, 3, "Lock"],
      ["type", "Lock.Primitive", 5, 5, "Lock"],
      ["method", "Lock.==", 8, 8, "Lock"],
      ["method", "Lock.take", 9, 12, "Lock"],
      ["impl", "Outer.Inner", 15, 17, null],
      ["method", "Outer.Inner.reset", 16, 16, "Outer.Inner"],
    ]);
    expect(sw.hasErrors).toBe(false);
    expect(sw.symbols[5]).toMatchObject({ name: "Inner", bases: ["Equatable"] });
    expect(calls(sw)).toEqual([
      ["Lock.take", "Box", "", 10],
      ["Lock.take", "x", "", 11],
      // An implicit member: the contextual type's, unknown without types.
      ["Lock.take", "make", ".", 11],
    ]);
  });

  it("records language and line counts on each file", () => {
    const store = storeOf(engine)!;
    expect(store.file("rs/point.rs")).toMatchObject({ language: "rust", lines: 25, skipped: null });
    expect(store.file("ts/view.tsx")).toMatchObject({ language: "tsx", lines: 5 });
    // As many C as C++ sources: headers are C.
    expect(store.file("c/zz.h")).toMatchObject({ language: "c" });
    expect(store.file("cpp/shop.hpp")).toMatchObject({ language: "cpp" });
    expect(store.file("cs/Billing.cs")).toMatchObject({ language: "csharp" });
    expect(store.file("rb/invoice_service.rb")).toMatchObject({ language: "ruby" });
    expect(store.file("sh/build.sh")).toMatchObject({ language: "bash" });
    expect(store.file("php/UserController.php")).toMatchObject({ language: "php" });
    expect(store.file("kt/StripeGateway.kt")).toMatchObject({ language: "kotlin" });
    expect(store.file("scala/StripeGateway.scala")).toMatchObject({ language: "scala" });
    expect(store.file("swift/StripeGateway.swift")).toMatchObject({ language: "swift" });
  });
});
