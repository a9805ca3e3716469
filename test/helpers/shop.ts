import { TempRepo } from "./repo.js";

/**
 * A small shop repository with git history: payments, cart, pricing, tests and docs. Its commit
 * messages and names are chosen so each signal has something only it can find.
 */
export const SHOP_FILES: Record<string, string> = {
  "shop/__init__.py": "",
  "shop/payments/retry.py": [
    "import time",
    "",
    "class RetryPolicy:",
    '    """Decides how long to wait before charging a declined card again."""',
    "",
    "    def __init__(self, attempts=3):",
    "        self.attempts = attempts",
    "",
    "    def next_delay(self, attempt):",
    "        if attempt >= self.attempts:",
    "            raise GiveUp(attempt)",
    "        return 2 ** attempt",
    "",
    "class GiveUp(Exception):",
    "    pass",
    "",
  ].join("\n"),
  "shop/payments/card.py": [
    "from shop.payments.retry import RetryPolicy",
    "",
    "def charge_card(card, amount):",
    '    """Charge the card through the gateway."""',
    "    policy = RetryPolicy()",
    "    return gateway_charge(card.number, amount, policy)",
    "",
    "def gateway_charge(number, amount, policy):",
    "    return {'number': number, 'amount': amount}",
    "",
  ].join("\n"),
  "shop/cart.py": [
    "from shop.pricing import total_price",
    "",
    "class Cart:",
    "    def __init__(self):",
    "        self.items = []",
    "",
    "    def add_item(self, item, quantity):",
    "        self.items.append((item, quantity))",
    "",
    "    def checkout(self):",
    "        return total_price(self.items)",
    "",
  ].join("\n"),
  "shop/pricing.py": [
    "def total_price(items):",
    '    """Sum of unit price times quantity over the cart lines."""',
    "    total = 0",
    "    for item, quantity in items:",
    "        total += item.unit_price * quantity",
    "    return total",
    "",
    "def apply_discount(total, percent):",
    "    return total * (100 - percent) / 100",
    "",
  ].join("\n"),
  "tests/test_cart.py": "from shop.cart import Cart\n\ndef test_checkout():\n    cart = Cart()\n    cart.add_item('apple', 2)\n    assert cart.checkout() == 0\n",
  "docs/payments.md": "# Payments\n\nA declined card is charged again by the retry policy after a delay.\n",
  "web/checkout.ts": "export function renderCheckout(cart: { total: number }): string {\n  return `<p>${cart.total}</p>`;\n}\n",
};

/** The shop repository with a history: the pricing bug fixes are what the history signal finds. */
export function shopRepo(): TempRepo {
  const repo = TempRepo.create(SHOP_FILES, { git: true, message: "Initial shop" });
  repo.write({ "shop/pricing.py": `${SHOP_FILES["shop/pricing.py"]}# rounding\n` });
  repo.commitAll("Fix rounding of the invoice amount for large orders");
  repo.write({ "shop/pricing.py": `${SHOP_FILES["shop/pricing.py"]}# rounding, vat\n` });
  repo.commitAll("Invoice amount was wrong again after VAT rounding change");
  return repo;
}
