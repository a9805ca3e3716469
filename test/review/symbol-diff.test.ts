import { describe, expect, it } from "vitest";
import type { CodeLanguage } from "../../src/core/types.js";
import { Grammars } from "../../src/indexing/parse/grammars.js";
import { parseText } from "../../src/indexing/parse/parse-batch.js";
import { diffSymbols, type FileSide } from "../../src/review/symbol-diff.js";

const grammars = new Grammars();

/** A file as tree-sitter sees it. */
function side(language: CodeLanguage, text: string): FileSide {
  const parsed = parseText(grammars, language, text, []);
  if (!parsed) throw new Error(`no ${language} grammar`);
  return { text, symbols: parsed.symbols };
}

/** The changes as `kind name` lines, in the order they are reported. */
function changes(language: CodeLanguage, before: string | null, after: string | null): string[] {
  const found = diffSymbols(before === null ? null : side(language, before), after === null ? null : side(language, after));
  return found.symbols.map((d) => `${d.change} ${(d.after ?? d.before)!.qualifiedName}`);
}

const PAYMENTS = `import os


def charge_card(card, amount):
    """Charge a card."""
    return amount


class Checkout:
    rate = 1

    def apply(self, card):
        return charge_card(card, 10)

    def total(self):
        return 10
`;

describe("diffSymbols", () => {
  it("tells a body change from a signature change, and reports a method, not its class", () => {
    const after = PAYMENTS.replace("def charge_card(card, amount):", "def charge_card(card, amount, currency):").replace("return charge_card(card, 10)", "return charge_card(card, 10, 'EUR')");
    expect(changes("python", PAYMENTS, after)).toEqual(["signature charge_card", "body Checkout.apply"]);
  });

  it("does not count a comment after the declaration as a signature change", () => {
    const after = PAYMENTS.replace("    def total(self):\n", "    def total(self):\n        # in cents\n");
    expect(changes("python", PAYMENTS, after)).toEqual(["body Checkout.total"]);
  });

  it("reports nothing for definitions that only moved or were re-indented with blank lines", () => {
    const moved = PAYMENTS.replace(/def charge_card[\s\S]*?return amount\n\n\n/, "") + '\n\ndef charge_card(card, amount):\n    """Charge a card."""\n\n    return amount\n';
    const found = diffSymbols(side("python", PAYMENTS), side("python", moved));
    expect(found.symbols).toEqual([]);
    expect(found.outside).toBe(false);
  });

  it("reports an added class once, not each of its methods, and an added method inside a kept class", () => {
    const after = `${PAYMENTS}\n\nclass Refund:\n    def run(self):\n        return 0\n`.replace("    def total(self):", "    def tax(self):\n        return 2\n\n    def total(self):");
    expect(changes("python", PAYMENTS, after)).toEqual(["added Checkout.tax", "added Refund"]);
  });

  it("lists removed definitions after the others, outermost only", () => {
    const after = PAYMENTS.replace(/class Checkout:[\s\S]*$/, "").replace("return amount", "return amount * 2");
    expect(changes("python", PAYMENTS, after)).toEqual(["body charge_card", "removed Checkout"]);
  });

  it("sees a change to the class's own lines (an attribute) as the class's, and code outside definitions", () => {
    const after = PAYMENTS.replace("rate = 1", "rate = 2").replace("import os", "import sys");
    const found = diffSymbols(side("python", PAYMENTS), side("python", after));
    expect(found.symbols.map((d) => `${d.change} ${d.after!.qualifiedName}`)).toEqual(["body Checkout"]);
    expect(found.outside).toBe(true);
  });

  it("pairs overloads by signature: only the changed one is reported", () => {
    const before = "class A {\n  int f(int x) { return x; }\n  int f(String s) { return 1; }\n}\n";
    const after = "class A {\n  int f(int x) { return x; }\n  int f(String s) { return 2; }\n  int f(long y) { return 3; }\n}\n";
    const found = diffSymbols(side("java", before), side("java", after));
    expect(found.symbols.map((d) => `${d.change} ${d.after?.signature ?? d.before!.signature}`)).toEqual(["body int f(String s)", "added int f(long y)"]);
  });

  it("treats every definition of an added file as added, and of a deleted file as removed", () => {
    expect(changes("python", null, PAYMENTS)).toEqual(["added charge_card", "added Checkout"]);
    expect(changes("python", PAYMENTS, null)).toEqual(["removed charge_card", "removed Checkout"]);
    expect(diffSymbols(null, side("python", PAYMENTS)).outside).toBe(false);
  });

  it("compares Rust items and their impl methods by qualified name", () => {
    const before = "struct Cart { n: u32 }\nimpl Cart {\n    fn total(&self) -> u32 { self.n }\n}\nfn helper() {}\n";
    const after = "struct Cart { n: u32 }\nimpl Cart {\n    fn total(&self, tax: u32) -> u32 { self.n + tax }\n}\nfn helper() {}\n";
    expect(changes("rust", before, after)).toEqual(["signature Cart.total"]);
  });
});
