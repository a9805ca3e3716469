import { describe, expect, it } from "vitest";
import { Bm25Builder, Bm25Snapshot } from "../../src/store/lexical.js";
import { isDamage } from "../../src/store/store.js";
import { seededRandom as random } from "../helpers/random.js";


describe("Bm25Builder", () => {
  it("groups postings by term, in sorted term order, keeping the order files were added in", () => {
    const b = new Bm25Builder();
    b.add(7, { terms: ["zeta", "alpha"], tfs: [2, 1], length: 3 });
    b.add(3, { terms: ["alpha", "mid"], tfs: [5, 70000], length: 9 });
    const snap = b.freeze();
    expect(snap.terms()).toEqual(["alpha", "mid", "zeta"]);
    expect([...snap.postings("alpha").ids]).toEqual([7, 3]);
    expect([...snap.postings("alpha").tfs]).toEqual([1, 5]);
    // Frequencies are capped at what 16 bits hold.
    expect([...snap.postings("mid").tfs]).toEqual([0xffff]);
    expect([...snap.postings("zeta").ids]).toEqual([7]);
    expect(snap.df("nothing")).toBe(0);
    expect(snap.docs).toBe(2);
    expect(snap.avgLength).toBe(6);
  });

  it("answers as a per-term map does, past many chunks of rows (the largest size too), and survives serialisation", () => {
    const next = random(42);
    const vocabulary = Array.from({ length: 3000 }, (_, i) => `t${i.toString(36)}`);
    const expected = new Map<string, Array<[number, number]>>();
    const b = new Bm25Builder();
    for (let id = 1; id <= 3000; id++) {
      const terms = [...new Set(Array.from({ length: 1 + Math.floor(next() * 120) }, () => vocabulary[Math.floor(next() * vocabulary.length)]!))];
      const tfs = terms.map(() => 1 + Math.floor(next() * 9));
      terms.forEach((t, i) => {
        const list = expected.get(t) ?? [];
        list.push([id, tfs[i]!]);
        expected.set(t, list);
      });
      b.add(id, { terms, tfs, length: tfs.reduce((a, c) => a + c, 0) });
    }
    const snap = Bm25Snapshot.parse(b.serialize());
    expect(snap.postingIds.length).toBeGreaterThan(2 * 65536 + 1024);
    expect(snap.termCount).toBe(expected.size);
    for (const [term, list] of expected) {
      const p = snap.postings(term);
      expect([...p.ids].map((id, i) => [id, p.tfs[i]])).toEqual(list);
    }
  });

  it("reads bytes that are a buffer of their own where they are, and copies a view into other bytes", () => {
    const b = new Bm25Builder();
    b.add(1, { terms: ["alpha", "beta"], tfs: [2, 1], length: 3 });
    b.add(2, { terms: ["beta"], tfs: [4], length: 4 });
    const bytes = b.serialize();
    const own = Buffer.from(new Uint8Array(bytes).buffer);
    expect(Bm25Snapshot.parse(own).offsets.buffer).toBe(own.buffer);
    // At an odd offset inside a larger buffer (a decoded record, a reused read buffer): copied, aligned.
    const host = Buffer.alloc(bytes.length + 3, 0xee);
    bytes.copy(host, 3);
    const view = host.subarray(3);
    const copied = Bm25Snapshot.parse(view);
    expect(copied.offsets.buffer).not.toBe(host.buffer);
    host.fill(0); // the caller reuses its buffer: the snapshot is unaffected
    for (const snap of [Bm25Snapshot.parse(own), copied]) {
      expect([...snap.postings("beta").ids]).toEqual([1, 2]);
      expect([...snap.postings("beta").tfs]).toEqual([1, 4]);
      expect(snap.avgLength).toBe(3.5);
    }
  });

  it("is spent once serialized: its rows are let go, and using it again is a bug that says so", () => {
    const b = new Bm25Builder();
    b.add(1, { terms: ["alpha"], tfs: [1], length: 1 });
    b.serialize();
    expect(() => b.serialize()).toThrow(/serialized twice/);
    expect(() => b.add(2, { terms: ["beta"], tfs: [1], length: 1 })).toThrow(/after serialize/);
  });

  it("finds every term by its bytes, in code point order, where JavaScript's order of UTF-16 units differs", () => {
    // U+1F600 (a surrogate pair) sorts before U+FF21 by UTF-16 units, after it by code point.
    const words = ["zeta", "ｆｕｌｌ", "😀smile", "émile", "a", "ab", "b", "中文", "\uffff", "Ａ"];
    const b = new Bm25Builder();
    words.forEach((w, i) => b.add(i + 1, { terms: [w], tfs: [i + 1], length: 1 }));
    const snap = Bm25Snapshot.parse(b.serialize());
    const byBytes = [...words].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect(snap.terms()).toEqual(byBytes);
    expect(byBytes).not.toEqual([...words].sort());
    words.forEach((w, i) => expect([...snap.postings(w).tfs]).toEqual([i + 1]));
    for (const absent of ["", "aa", "zz", "😀", "ｆｕｌ", "中", "\ud83d"]) expect(snap.df(absent)).toBe(0);
  });

  it("finds every term after one that holds a line break (a JavaScript computed member's name)", () => {
    const names = ["Alpha", "[\n    cm\n  ]", "[\n    class D {}\n  ]", "buildNodes", "zeta", "_private"];
    const b = new Bm25Builder();
    names.forEach((name, i) => b.add(i + 1, { terms: [name], tfs: [1], length: 1 }));
    const snap = Bm25Snapshot.parse(b.serialize());
    expect(snap.termCount).toBe(names.length);
    names.forEach((name, i) => expect([...snap.postings(name).ids]).toEqual([i + 1]));
    expect(snap.df("cm")).toBe(0);
  });

  it("leaves out terms with a lone surrogate, which have no bytes of their own, and finds every other term as a map does", () => {
    // A lone surrogate's UTF-8 is U+FFFD's: kept, it would sort apart from its bytes, collide with
    // U+FFFD and join with a neighbour's other half.
    const alphabet = ["a", "b", "é", "中", "😀", "\uffff", "\ufffd", "\ud800", "\udc00", "\ud83d", "\ude00", "\n", "\u0000"];
    const next = random(21);
    for (let round = 0; round < 200; round++) {
      const b = new Bm25Builder();
      const expected = new Map<string, number[]>();
      let rows = 0;
      for (let id = 1; id <= 6; id++) {
        const terms = [...new Set(Array.from({ length: 1 + Math.floor(next() * 6) }, () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => alphabet[Math.floor(next() * alphabet.length)]!).join("")))];
        b.add(id, { terms, tfs: terms.map(() => 1), length: terms.length });
        for (const t of terms) {
          if (/\p{Cs}/u.test(t)) continue;
          rows++;
          expected.set(t, [...(expected.get(t) ?? []), id]);
        }
      }
      expect(b.rows).toBe(rows);
      const snap = Bm25Snapshot.parse(b.serialize());
      expect(snap.terms()).toEqual([...expected.keys()].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))));
      for (const [t, ids] of expected) expect([...snap.postings(t).ids]).toEqual(ids);
      for (const lone of ["\ud800", "\udc00", "\ud83d", "a\ude00"]) expect(snap.df(lone)).toBe(0);
    }
  });

  it("says a damaged snapshot is damaged (so the index is rebuilt) rather than answering from it", () => {
    const b = new Bm25Builder();
    ["alpha", "beta", "gamma", "中文"].forEach((t, i) => b.add(i + 1, { terms: [t, "common"], tfs: [1, 2], length: 3 }));
    const bytes = b.serialize();
    const damaged = (mutate: (copy: Buffer) => Buffer): unknown => {
      try {
        Bm25Snapshot.parse(mutate(Buffer.from(bytes)));
        return null;
      } catch (error) {
        return error;
      }
    };
    // Cut anywhere: every length but the whole and none.
    for (let length = 1; length < bytes.length; length++) {
      const error = damaged((copy) => copy.subarray(0, length));
      expect(error, `cut to ${length} bytes`).not.toBeNull();
      expect(isDamage(error), `cut to ${length} bytes: ${String(error)}`).toBe(true);
    }
    // A header that is not JSON, or says the arrays are longer than the bytes.
    expect(isDamage(damaged((copy) => (copy.fill(0x7b, 4, 6), copy)))).toBe(true);
    const headerLength = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.toString("utf8", 4, 4 + headerLength)) as Record<string, number>;
    // More postings than the bytes hold, written in as many digits.
    const longer = JSON.stringify({ ...header, p: Number("9".repeat(String(header.p).length)) });
    expect(Buffer.byteLength(longer)).toBe(headerLength);
    expect(longer).not.toBe(JSON.stringify(header));
    expect(isDamage(damaged((copy) => (copy.write(longer, 4, "utf8"), copy)))).toBe(true);
    // Where terms start, where postings lists start: found out of order, not trusted.
    const snap = Bm25Snapshot.parse(Buffer.from(bytes));
    const termStartsAt = snap.termStarts.byteOffset;
    const offsetsAt = snap.offsets.byteOffset;
    expect(isDamage(damaged((copy) => (copy.writeUInt32LE(1000, termStartsAt + 8), copy)))).toBe(true);
    expect(isDamage(damaged((copy) => (copy.writeUInt32LE(1000, offsetsAt + 4), copy)))).toBe(true);
    expect(Bm25Snapshot.parse(Buffer.alloc(0)).docs).toBe(0);
  });

  it("writes an empty snapshot that reads back empty", () => {
    const snap = Bm25Snapshot.parse(new Bm25Builder().serialize());
    expect(snap.docs).toBe(0);
    expect(snap.df("alpha")).toBe(0);
    expect(snap.avgLength).toBe(0);
  });
});
