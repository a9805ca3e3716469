import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import { tokenize } from "../../src/core/tokenize.js";
import { withIndexedEngine } from "../helpers/index.js";
import { TempRepo } from "../helpers/repo.js";
import { storeOf } from "../helpers/store.js";
import { join } from "node:path";
import { LexicalBuilder, loadLexical, type Postings } from "../../src/store/lexical.js";
import { runCli } from "../helpers/cli.js";
import { IndexStore } from "../../src/store/store.js";

const FILES = {
  "payments/retry.py": 'class RetryPolicy:\n    """Retries failed card charges."""\n    def next_delay(self):\n        return backoff(2)\n',
  "payments/card.py": "def charge_card(card):\n    return gateway.charge(card)\n",
  "docs/guide.md": "# Guide\nHow to configure the retry policy for payments.\n",
  "shop/cart.ts": "export function addToCart(item: Item) {\n  return cart.push(item);\n}\n",
};

describe("lexical index", () => {
  let repo: TempRepo | undefined;
  afterEach(() => repo?.dispose());

  const withEngine = (fn: (engine: Engine) => Promise<void> | void) => withIndexedEngine(repo!.root, { git: false }, fn);

  it("finds files by path and symbols with FlexSearch, and by body with BM25", async () => {
    repo = TempRepo.create(FILES);
    await withEngine((engine) => {
      const lex = loadLexical(storeOf(engine)!);
      expect(lex.search("cart", { field: "path" })).toEqual(["shop/cart.ts"]);
      // The class first; then the guide, whose section's first sentence names the retry policy.
      expect(lex.search("RetryPolicy", { field: "symbols" })).toEqual(["payments/retry.py", "docs/guide.md"]);
      // Other spellings of a name still find it, best match first.
      expect(lex.search("chargeCard", { field: "symbols" })[0]).toBe("payments/card.py");
      // Bodies are BM25's: FlexSearch keeps no second copy of every file's terms.
      expect(lex.search("gateway")).toEqual([]);
      expect([...lex.bm25.postings("gateway").ids].map((id) => lex.pathOf(id))).toEqual(["payments/card.py"]);
      expect(lex.search("retry policy")).toEqual(["payments/retry.py", "docs/guide.md"]);
    });
  });

  it("keeps BM25 statistics: document frequencies, term frequencies and lengths", async () => {
    repo = TempRepo.create(FILES);
    await withEngine((engine) => {
      const { bm25, pathOf } = loadLexical(storeOf(engine)!);
      expect(bm25.docs).toBe(4);
      expect(bm25.df("retry")).toBe(2);
      expect(bm25.df("nothing-like-this")).toBe(0);
      const postings = bm25.postings("card");
      const byPath = Object.fromEntries([...postings.ids].map((id, i) => [pathOf(id), postings.tfs[i]]));
      expect(byPath).toEqual({ "payments/card.py": 3, "payments/retry.py": 1 });
      const cardId = [...postings.ids].find((id) => pathOf(id) === "payments/card.py")!;
      expect(bm25.length(cardId)).toBe(tokenize(FILES["payments/card.py"]).length);
      const total = [...postings.ids].reduce((sum, id) => sum + bm25.length(id), 0);
      expect(total).toBeGreaterThan(0);
      expect(bm25.avgLength).toBeCloseTo(
        Object.values(FILES).reduce((s, text) => s + tokenize(text).length, 0) / 4,
        5,
      );
    });
  });

  it("reflects an edit and a deletion through the journal, without rewriting the snapshot", async () => {
    repo = TempRepo.create(FILES);
    await withEngine(() => undefined);
    repo.write({ "payments/card.py": "def refund_card(card):\n    return ledger.refund(card)\n" });
    repo.remove("shop/cart.ts");
    await withEngine((engine) => {
      const store = storeOf(engine)!;
      // The snapshot still holds the old versions; the journal names what changed.
      expect(store.lexical.pendingCount()).toBe(2);
      const lex = loadLexical(storeOf(engine)!);
      expect(lex.search("charge", { field: "symbols" })).toEqual([]);
      expect(lex.search("refund", { field: "symbols" })).toEqual(["payments/card.py"]);
      expect(lex.search("cart", { field: "path" })).toEqual([]);
      expect(lex.bm25.docs).toBe(3);
      expect(lex.bm25.df("gateway")).toBe(0);
      expect(lex.bm25.df("card")).toBe(2);
      expect(lex.bm25.df("refund")).toBe(1);
    });
  });

  it("gives the same answers from a fresh snapshot as from snapshot plus journal", async () => {
    repo = TempRepo.create(FILES);
    await withEngine(() => undefined);
    repo.write({ "payments/card.py": "def refund_card(card):\n    return ledger.refund(card)\n" });
    const answers = (engine: Engine) => {
      const lex = loadLexical(storeOf(engine)!);
      return {
        refund: lex.search("refund"),
        retry: lex.search("retry").sort(),
        docs: lex.bm25.docs,
        df: ["charge", "refund", "retry", "card"].map((t) => lex.bm25.df(t)),
        // Each term's postings by path, asked twice (the second answer is the merged list kept).
        postings: ["charge", "refund", "card", "ledger"].map((t) => [postingsOf(lex, t), postingsOf(lex, t)]),
      };
    };
    const postingsOf = (lex: ReturnType<typeof loadLexical>, term: string) => {
      const { ids, tfs } = lex.bm25.postings(term);
      return Object.fromEntries([...ids].map((id, i) => [lex.pathOf(id), tfs[i]]));
    };
    let viaJournal: unknown;
    await withEngine((engine) => {
      viaJournal = answers(engine);
    });
    repo.remove(".contextsmith");
    await withEngine((engine) => {
      expect(storeOf(engine)!.lexical.pendingCount()).toBe(0);
      expect(answers(engine)).toEqual(viaJournal);
    });
  });

  /** What a lexical index answers, by path (ids and segment order aside). */
  const answersOf = (lex: ReturnType<typeof loadLexical>) => {
    const byPath = (p: Postings) => Object.fromEntries([...p.ids].map((id, i) => [lex.pathOf(id), p.tfs[i]]));
    const terms = ["card", "retry", "charge", "refund", "ledger", "policy", "cart", "item", "guide", "RetryPolicy", "addToCart"];
    return {
      stats: (["bm25", "symbols", "names"] as const).map((part) => {
        const stats = lex[part];
        return { docs: stats.docs, avgLength: stats.avgLength, postings: terms.map((t) => byPath(stats.postings(t))), df: terms.map((t) => stats.df(t)), lengths: [...lex.files.keys()].map((id) => stats.length(id)) };
      }),
      search: ["cart", "retry policy", "RetryPolicy", "chargeCard", "refund"].map((q) => lex.search(q).sort()),
    };
  };

  it("answers the same from a snapshot in many segments as from one, with the journal laid over either", async () => {
    repo = TempRepo.create(FILES);
    let whole: unknown;
    await withEngine((engine) => {
      expect(storeOf(engine)!.lexical.segments()).toHaveLength(1);
      whole = answersOf(loadLexical(storeOf(engine)!));
    });
    const { store } = await IndexStore.openForWrite(join(repo.root, ".contextsmith"));
    try {
      // A few rows a segment: each file in a segment of its own.
      await new LexicalBuilder(store, 3).write();
      expect(store.lexical.segments()).toHaveLength(4);
      const lex = loadLexical(store);
      expect(answersOf(lex)).toEqual(whole);
      // Path hits before symbol hits, as in one segment: the file named retry, then the guide.
      expect(lex.search("retry policy")).toEqual(["payments/retry.py", "docs/guide.md"]);
    } finally {
      await store.close();
    }
    // An edit and a removal, laid over the segments by the journal, as over one snapshot.
    repo.write({ "payments/card.py": "def refund_card(card):\n    return ledger.refund(card)\n" });
    repo.remove("shop/cart.ts");
    let overSegments: unknown;
    await withEngine((engine) => {
      const reader = storeOf(engine)!;
      expect(reader.lexical.pendingCount()).toBe(2);
      overSegments = answersOf(loadLexical(reader));
    });
    repo.remove(".contextsmith");
    await withEngine((engine) => {
      expect(answersOf(loadLexical(storeOf(engine)!))).toEqual(overSegments);
    });
  });

  it("keeps answering from the snapshot it loaded when a writer replaces it meanwhile", async () => {
    repo = TempRepo.create(FILES);
    await withEngine(() => undefined);
    const dir = join(repo.root, ".contextsmith");
    const reader = IndexStore.openForRead(dir)!;
    const { store: writer } = await IndexStore.openForWrite(dir);
    try {
      const lex = loadLexical(reader);
      // A new snapshot, in other segments: the keys the reader's snapshot had are gone.
      await new LexicalBuilder(writer, 3).write();
      expect(reader.lexical.segments()).toHaveLength(4);
      expect(lex.bm25.docs).toBe(4);
      expect(lex.bm25.df("card")).toBe(2);
      expect([...lex.names.postings("RetryPolicy").ids].map((id) => lex.pathOf(id))).toEqual(["payments/retry.py"]);
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it("answers from the journal alone when a first build was killed before its snapshot", async () => {
    repo = TempRepo.create(FILES);
    const killed = runCli(["index", repo.root, "--no-git"], { env: { CTXSMITH_FAULT: "kill:lexical-write:1" } });
    expect(killed.status, killed.stderr).toBeNull();
    const store = IndexStore.openForRead(join(repo.root, ".contextsmith"))!;
    try {
      expect(store.lexical.segments()).toEqual([]);
      expect(store.lexical.pendingCount()).toBe(4);
      const lex = loadLexical(store);
      expect(lex.bm25.docs).toBe(4);
      expect([...lex.bm25.postings("gateway").ids].map((id) => lex.pathOf(id))).toEqual(["payments/card.py"]);
      expect(lex.search("RetryPolicy", { field: "symbols" })).toEqual(["payments/retry.py", "docs/guide.md"]);
    } finally {
      await store.close();
    }
  });
});
