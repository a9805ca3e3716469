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
