/**
 * Small repositories with known call graphs, one per language family. Each comment `# ->` in the
 * tests below names the edge a call must resolve to.
 */

export const PYTHON: Record<string, string> = {
  "shop/__init__.py": "from .payments import charge_card\n",
  "shop/payments.py": `from .util import retry as with_retry
import shop.util as u


class Gateway:
    def send(self, amount):
        return with_retry(amount)


class StripeGateway(Gateway):
    def charge(self, amount):
        self.send(amount)
        return super().send(amount)

    def refund(self, amount):
        return self.charge(-amount)


def charge_card(card, amount):
    gateway = StripeGateway()
    u.log_event("charge")
    return gateway.charge(amount)
`,
  "shop/util.py": `def retry(x):
    return x


def log_event(name):
    return retry(name)
`,
  "app/main.py": `from shop import charge_card
from shop.payments import Gateway


def checkout(cart):
    return charge_card(cart, 10)


def run():
    checkout(None)
    Gateway().send(1)
`,
  // Two definitions of `render`: a call by name alone is ambiguous.
  "views/a.py": "def render(x):\n    return x\n",
  "views/b.py": "def render(x):\n    return x\n",
  "views/page.py": "def page(obj):\n    return render(obj)\n",
  // A cycle: ping -> pong -> ping.
  "loop.py": "def ping(n):\n    return pong(n - 1)\n\n\ndef pong(n):\n    return ping(n) if n > 0 else 0\n\n\ndef start():\n    return ping(3)\n",
  "tests/test_payments.py": "from shop.payments import charge_card\n\n\ndef test_charge():\n    assert charge_card(None, 1)\n",
};

export const JAVASCRIPT: Record<string, string> = {
  "src/math.js": "export function add(a, b) { return a + b; }\nexport function double(a) { return add(a, a); }\n",
  "src/index.js": 'export { add as plus } from "./math.js";\nexport * from "./math.js";\n',
  "src/app.js": `import { plus, double } from "./index.js";
const fmt = require("./format");
import Widget from "./widget";

export function main() {
  const w = new Widget();
  w.draw();
  return fmt.pretty(plus(1, double(2)));
}
`,
  "src/format.js": "function pretty(x) { return String(x); }\nmodule.exports = { pretty };\n",
  "src/widget.ts": `import { Base } from "./base";

export default class Widget extends Base {
  draw(): void {
    this.paint();
  }
}
`,
  "src/base.ts": "export class Base {\n  paint(): void {}\n}\n",
};

export const GO: Record<string, string> = {
  "go.mod": "module example.com/shop\n\ngo 1.22\n",
  "pkg/store/store.go": `package store

type Store struct{ items []string }

func New() *Store { return &Store{} }

func (s *Store) Add(x string) { s.items = append(s.items, x); s.touch() }

func (s *Store) touch() {}
`,
  "pkg/store/helpers.go": "package store\n\nfunc Count(s *Store) int { return len(s.items) }\n",
  "cmd/main.go": `package main

import (
	"fmt"
	"example.com/shop/pkg/store"
)

func main() {
	s := store.New()
	s.Add("x")
	fmt.Println(store.Count(s))
}
`,
};

export const JAVA: Record<string, string> = {
  "src/main/java/com/shop/Animal.java": `package com.shop;

public class Animal {
  public String speak() { return name(); }
  protected String name() { return "animal"; }
}
`,
  "src/main/java/com/shop/Dog.java": `package com.shop;

public class Dog extends Animal {
  public String bark() { return speak() + this.name(); }
}
`,
  "src/main/java/com/app/Main.java": `package com.app;

import com.shop.Dog;

public class Main {
  public static void main(String[] args) {
    Dog d = new Dog();
    System.out.println(d.bark());
  }
}
`,
};

export const RUST: Record<string, string> = {
  "src/lib.rs": "pub mod shapes;\nuse crate::shapes::Circle;\n\npub fn area_of(r: f64) -> f64 {\n    let c = Circle::new(r);\n    c.area()\n}\n",
  "src/shapes.rs": `pub struct Circle { r: f64 }

impl Circle {
    pub fn new(r: f64) -> Self { Self::check(r); Circle { r } }
    fn check(r: f64) {}
    pub fn area(&self) -> f64 { self.square() * 3.14 }
    fn square(&self) -> f64 { self.r * self.r }
}
`,
};

/** A JS/TS monorepo: packages import each other by name. */
export const WORKSPACE: Record<string, string> = {
  "package.json": JSON.stringify({ name: "acme", private: true, workspaces: ["packages/*"] }),
  "packages/util/package.json": JSON.stringify({ name: "@acme/util", main: "lib/index.js" }),
  "packages/util/src/index.ts": 'export { formatPrice } from "./format";\n',
  "packages/util/src/format.ts": "export function formatPrice(cents: number): string {\n  return (cents / 100).toFixed(2);\n}\n",
  "packages/util/src/money/round.ts": "export function roundCents(x: number): number {\n  return Math.round(x);\n}\n",
  "packages/app/package.json": JSON.stringify({ name: "@acme/app" }),
  "packages/app/src/main.ts": `import { formatPrice } from "@acme/util";
import { roundCents } from "@acme/util/money/round";
import React from "react";

export function render(total: number): string {
  return formatPrice(roundCents(total));
}
`,
};

/**
 * A C library: prototypes in headers, definitions in sources, includes beside the file, through
 * the include folders CMake names, and by path tail.
 */
export const C: Record<string, string> = {
  "CMakeLists.txt": "project(zz C)\ninclude_directories(include config)\nadd_library(zz lib/zz_compress.c lib/zz_errors.c)\n",
  "include/zz/zz.h": `#ifndef ZZ_H
#define ZZ_H
#include "zz_errors.h"
/*! zz_compress() : compresses src into dst. */
ZZLIB_API int zz_compress(char* dst, const char* src, int n);
int zz_level(void);
#endif
`,
  "include/zz/zz_errors.h": "typedef enum { zz_ok, zz_bad } zz_error;\nconst char* zz_errorName(zz_error e);\n",
  "lib/zz_compress.c": `#include "zz/zz.h"
#include "common/mem.h"
#include <stdio.h>

static int count_bytes(const char* s, int n) { return mem_read(s) + n; }

/* Compresses. */
int zz_compress(char* dst, const char* src, int n) {
  if (n < 0) return report(zz_errorName(zz_bad));
  return count_bytes(src, n) + zz_level();
}

int zz_level(void) { return 3; }
`,
  "lib/common/mem.h": "#define MEM_STATIC static inline\nMEM_STATIC int mem_read(const char* p) { return p[0]; }\n",
  "lib/zz_errors.c": '#include "zz/zz_errors.h"\nconst char* zz_errorName(zz_error e) { return e == zz_ok ? "ok" : "bad"; }\n',
  // Two files end with `config.h`: the include folder CMake names decides which one `<config.h>` is.
  "config/config.h": "#define ZZ_THREADS 4\n",
  "tests/config.h": "#define ZZ_THREADS 1\n",
  "programs/cli.c": "#include <zz/zz.h>\n#include <config.h>\nint main(void) { char b[4]; return zz_compress(b, \"x\", ZZ_THREADS); }\n",
};

/** A C++ library: namespaces, classes declared in headers and defined out of class, inheritance, static and qualified calls. */
export const CPP: Record<string, string> = {
  "CMakeLists.txt": "project(shop CXX)\nadd_library(shop src/gateway.cpp src/util.cpp)\ntarget_include_directories(shop PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>)\n",
  "include/shop/gateway.h": `#pragma once
#include <string>
#include "shop/util.h"

namespace shop {

/// A payment gateway.
class Gateway {
 public:
  virtual ~Gateway() = default;
  /// Sends a request.
  int send(const std::string& body);
  static Gateway* create();
};

class StripeGateway : public Gateway {
 public:
  int charge(int cents);
  int refund(int cents) { return charge(-cents); }
};

}  // namespace shop
`,
  "include/shop/util.h": `#pragma once
namespace shop {
namespace util {
int retry(int times);
}
template <typename T> T clamp(T v, T lo, T hi) { return v < lo ? lo : v > hi ? hi : v; }
}
`,
  "src/gateway.cpp": `#include "shop/gateway.h"

namespace shop {

int Gateway::send(const std::string& body) {
  return util::retry(3) + static_cast<int>(body.size());
}

Gateway* Gateway::create() { return new StripeGateway(); }

int StripeGateway::charge(int cents) {
  int c = clamp(cents, 0, 100);
  return this->send("charge") + c;
}

}  // namespace shop
`,
  "src/util.cpp": '#include "shop/util.h"\nnamespace shop::util {\nint retry(int times) { return times > 0 ? times : 1; }\n}\n',
  "include/shop/log.h": "#pragma once\nvoid flush(void);\nstruct Buffer { void flush(); };\n",
  "src/log.cpp": '#include "shop/log.h"\nvoid flush(void) {}\nvoid Buffer::flush() { ::flush(); }\n',
  "src/tool.cpp": '#include "shop/util.h"\nusing namespace shop::util;\nint tool() { return retry(2); }\n',
  "src/main.cpp": `#include <shop/gateway.h>
#include "shop/log.h"
int main() {
  flush();
  auto* g = shop::Gateway::create();
  shop::StripeGateway s;
  return s.charge(5) + g->send("x") + std::move(1);
}
// Outside namespace shop, a bare retry() is not shop::util::retry (a C library's, or nothing).
int outside() { return retry(1); }
`,
};

export const CSHARP: Record<string, string> = {
  "src/Shop.Core/Gateway.cs": `namespace Shop.Core
{
    public abstract class Gateway
    {
        protected int Send(int amount) { return Retry.Run(amount); }
    }
}
`,
  "src/Shop.Core/Retry.cs": `namespace Shop.Core;

public static class Retry
{
    public static int Run(int x) => x;
}
`,
  "src/Shop.Payments/StripeGateway.cs": `using Shop.Core;
using static Shop.Payments.Clamp;

namespace Shop.Payments
{
    public partial class StripeGateway : Gateway
    {
        public int Charge(int amount)
        {
            var n = Limit(amount);
            return Send(n) + this.Send(n) + base.Send(n);
        }
    }
}
`,
  "src/Shop.Payments/StripeGateway.Refund.cs": `namespace Shop.Payments
{
    public partial class StripeGateway
    {
        public int Refund(int amount) => Charge(-amount);
    }
}
`,
  "src/Shop.Payments/Clamp.cs": `namespace Shop.Payments
{
    public static class Clamp
    {
        public static int Limit(int x) => x;
    }
}
`,
  "src/App/Program.cs": `using Shop.Payments;

namespace App
{
    class Program
    {
        static void Main()
        {
            var gateway = new StripeGateway();
            gateway.Refund(1);
            Console.WriteLine("done");
        }
    }
}
`,
};

export const RUBY: Record<string, string> = {
  "lib/shop.rb": `require "shop/gateway"
require_relative "shop/stripe_gateway"
require "json"
`,
  "lib/shop/gateway.rb": `require_relative "retry"

module Shop
  class Gateway
    include Retry

    def send_amount(amount)
      with_retry(amount)
    end
  end
end
`,
  "lib/shop/retry.rb": `module Shop
  module Retry
    def with_retry(x)
      x
    end

    def self.log(x)
      x
    end
  end
end
`,
  "lib/shop/stripe_gateway.rb": `require_relative "gateway"

module Shop
  class StripeGateway < Gateway
    def charge(amount)
      send_amount(amount)
      self.send_amount(amount)
      Retry.log(amount)
    end
  end
end
`,
  "lib/shop/refunds.rb": `module Shop
  class StripeGateway
    def refund(amount)
      charge(-amount)
    end
  end
end
`,
  "bin/checkout": `#!/usr/bin/env ruby
`,
  "app/checkout.rb": `require "shop"

def checkout(amount)
  gateway = Shop::StripeGateway.new
  gateway.refund(amount)
  amount.each { |x| x }
end
`,
};

export const SHELL: Record<string, string> = {
  "scripts/lib/common.sh": `log() {
  echo "$@"
}
`,
  "scripts/lib/util.sh": `source "$(dirname "\${BASH_SOURCE[0]}")/common.sh"

retry() {
  log "retry"
}
`,
  "scripts/deploy.sh": `#!/usr/bin/env bash
. "$(dirname "$0")/lib/util.sh"
source scripts/lib/common.sh

deploy() {
  retry
  log "deployed"
  rsync -a . remote:
}

deploy
`,
};

export const PHP: Record<string, string> = {
  "app/Models/Model.php": `<?php
namespace App\\Models;

abstract class Model
{
    public function save() { return true; }
}
`,
  "app/Models/User.php": `<?php
namespace App\\Models;

class User extends Model
{
    public static function create(array $attributes) { return new static(); }
}
`,
  "app/Support/helpers.php": `<?php
namespace App\\Support;

function helper($x) { return $x; }
`,
  "app/Http/Controllers/Controller.php": `<?php
namespace App\\Http\\Controllers;

abstract class Controller
{
    protected function authorize() { return true; }
}
`,
  "app/Http/Controllers/UserController.php": `<?php
namespace App\\Http\\Controllers;

use App\\Models\\User;
use function App\\Support\\helper;

class UserController extends Controller
{
    public function store()
    {
        parent::authorize();
        $user = User::create([]);
        $this->audit($user);
        helper(1);
        return new User();
    }

    private function audit($user) { $user->save(); }
}
`,
  "legacy/functions.php": `<?php
function legacy_format($x) { return $x; }
`,
  "legacy/page.php": `<?php
require_once __DIR__ . '/functions.php';
echo legacy_format(1);
`,
};

export const KOTLIN: Record<string, string> = {
  "core/src/main/kotlin/com/acme/core/Gateway.kt": `package com.acme.core

open class Gateway {
    open fun send(n: Int): Int = Retry.run(n)
}
`,
  "core/src/main/kotlin/com/acme/core/Retry.kt": `package com.acme.core

object Retry {
    fun run(n: Int): Int = n
}
`,
  "core/src/main/kotlin/com/acme/core/Mode.kt": `package com.acme.core

enum class Mode { FAST, SLOW }
`,
  "util/src/main/kotlin/com/acme/util/Limits.kt": `package com.acme.util

fun limit(n: Int): Int = n

fun String.shout(): String = this
`,
  "shop/src/main/kotlin/com/acme/shop/StripeGateway.kt": `package com.acme.shop

import com.acme.core.Gateway
import com.acme.util.*

class StripeGateway : Gateway() {
    fun charge(n: Int): Int {
        val x = limit(n)
        send(x)
        this.send(x)
        return super.send(x)
    }

    companion object {
        fun create(): StripeGateway = StripeGateway()
    }
}
`,
  "app/src/main/kotlin/com/acme/app/Main.kt": `package com.acme.app

import com.acme.shop.StripeGateway as Stripe
import com.acme.util.shout
import com.acme.core.Mode.FAST

fun main() {
    Stripe.create().charge(1)
    val g = Stripe()
    g.charge(2)
    "x".shout()
}
`,
};

export const SCALA: Record<string, string> = {
  "core/src/main/scala/com/acme/core/Gateway.scala": `package com.acme.core

class Gateway {
  def send(n: Int): Int = Retry.run(n)
}

object Retry {
  def run(n: Int): Int = n
}
`,
  "util/src/main/scala/com/acme/util/Limits.scala": `package com.acme.util

object Limits {
  def limit(n: Int): Int = n
}
`,
  "shop/src/main/scala/com/acme/shop/StripeGateway.scala": `package com.acme.shop

import com.acme.core.Gateway
import com.acme.util.{Limits => L}

class StripeGateway extends Gateway {
  def charge(n: Int): Int = {
    val x = L.limit(n)
    send(x)
    super.send(x)
  }
}

object StripeGateway {
  def create(): StripeGateway = new StripeGateway()
}
`,
  "app/src/main/scala/com/acme/app/Main.scala": `package com.acme.app

import com.acme.shop._

object Main {
  def main(args: Array[String]): Unit = StripeGateway.create()
}
`,
};

/**
 * A Swift package: two targets (modules), a test target and a tool with a folder of its own,
 * extensions in files of their own, protocols' default implementations; beside it, an app laid
 * out without a manifest (Tuist's `Targets/<App>/Sources`).
 */
export const SWIFT: Record<string, string> = {
  "Package.swift": `// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "Shop",
    targets: [
        .target(name: "Core"),
        .target(name: "Shop", dependencies: ["Core"]),
        .executableTarget(name: "shop-cli", dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser"), "Shop"], path: "Tools/shop-cli"),
        .testTarget(name: "ShopTests", dependencies: ["Shop"]),
    ]
)
`,
  "Sources/Core/Gateway.swift": `open class Gateway {
    public init() {}
    open func send(_ n: Int) -> Int { Retry.run(n) }
}

public struct Job {
    public func run() {}
}
`,
  "Sources/Core/Retry.swift": `public enum Retry {
    public static func run(_ n: Int) -> Int { n }
}

public func limit(_ n: Int) -> Int { n }
public func clamp(_ n: Int) -> Int { n }

public protocol Payments { func pay() -> Int }

extension Payments {
    public func pay() -> Int { 0 }
}

public protocol Auditable {}

extension Auditable {
    public func audit() {}
}
`,
  "Sources/Shop/Limits.swift": `func limit(_ n: Int) -> Int { n }
`,
  "Sources/Shop/StripeGateway.swift": `import Core

final class StripeGateway: Gateway, Payments {
    init(key: String) { super.init() }

    func charge(_ n: Int) -> Int {
        let x = clamp(limit(n))
        send(x)
        self.send(x)
        return super.send(x)
    }

    func total() -> Int { pay() }

    func retried() -> Retry { .run(2) }
}
`,
  "Sources/Shop/StripeGateway+Refund.swift": `import Core

extension StripeGateway {
    convenience init(cents: Int) { self.init(key: "k") }
    func refund(_ n: Int) -> Int { charge(-n) }
    static func make() -> StripeGateway { StripeGateway(key: "k") }
    func resend() { send(1) }
}

extension StripeGateway: Auditable {
    func check() { audit() }
}
`,
  "Tools/shop-cli/main.swift": `import Shop

func run() {
    StripeGateway.make().refund(1)
    report()
}
`,
  "Tools/reports/Report.swift": `func report() {}
`,
  "Targets/App/Sources/AppDelegate.swift": `func launch() {
    setup()
    formatDate()
}
`,
  "Targets/App/Sources/Setup.swift": `func setup() {}
`,
  "Targets/App/Sources/Views/Home.swift": `func formatDate() {}
`,
  "Targets/Widget/Sources/Widget.swift": `func setup() {}
func formatDate() {}
`,
  "Tests/ShopTests/StripeGatewayTests.swift": `import XCTest
@testable import Shop

final class StripeGatewayTests: XCTestCase {
    func testRefund() {
        let g = StripeGateway.make()
        XCTAssertEqual(g.refund(1), -1)
    }
}
`,
};
