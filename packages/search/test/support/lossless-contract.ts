// Contract part: every backend stores and returns any JavaScript string exactly (NUL, lone
// surrogates, U+FFFF, in every field), keeps look-alike keys apart, and searches the sanitised text.
import * as fc from "fast-check";
import { expect, it } from "vitest";
import type { IndexEntry, Json, SegmentIndex } from "../../src/contract.js";
import { entry } from "../../src/contract.js";
import { isPlainText } from "../../src/lossless.js";
import { left, right, runs } from "./contract.js";

/** One UTF-16 code unit of any value (lone surrogates, NUL, U+FFFF), an astral code point, or a tricky one. */
const oddUnit = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
  fc.constantFrom(
    "\u0000",
    "\uD800",
    "\uDBFF",
    "\uDC00",
    "\uDFFF",
    "\uFFFF",
    "\uFFFD",
    "\\",
    '"',
    "'",
    " ",
    "a",
    "é",
    "数",
  ),
);

/** Any JavaScript string: well-formed full Unicode, or arbitrary code units. */
export const anyString = fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: oddUnit }), fc.string());
const anyKey = anyString.filter((s) => s.length > 0);
const jsonLeaf: fc.Arbitrary<Json> = fc.oneof(anyString, fc.integer(), fc.boolean(), fc.constant(null));
const metadata = fc.dictionary(
  anyString.filter((k) => k !== "__proto__"),
  fc.oneof(jsonLeaf, fc.array(jsonLeaf, { maxLength: 3 })),
  { maxKeys: 4 },
);

/** Look-alike strings: equal after sanitising (or after a naive escape), different as data. */
const LOOKALIKES: readonly string[] = [
  "a\uD800",
  "a\uDC00",
  "a\uFFFD",
  "a\u0000",
  "a ",
  "\uFFFF",
  '\uFFFF"a"',
  "\uFFFFa",
  '"a"',
  "a",
];

/** Registers the lossless-storage tests for one backend (called inside its contract `describe`). */
export function losslessContract(makeIndex: () => Promise<SegmentIndex>): void {
  it("stores NUL, lone surrogates and U+FFFF in every field exactly, keeps look-alike ids apart, and searches the sanitised text", async () => {
    const index = await makeIndex();
    const ns = "session\u0000\uD83D";
    const kind = "tool\uDFFF";
    const odd = LOOKALIKES.map((id, i) =>
      entry({
        id,
        namespace: ns,
        kind,
        summary: `binary output ${i} \u0000\u0001 needle \uD83D`,
        content: `\uDE00 truncated emoji \u0000 haystack${i} ${"🔥".slice(0, 1)}`,
        metadata: { "k\u0000": "v\uD800", list: ["\u0000", "\uFFFF"], n: i },
      }),
    );
    const plain = entry({ id: "a", namespace: "session", kind: "tool\uFFFD", summary: "plain needle" });
    right(await index.write([...odd, plain])());
    expect(right(await index.count(ns)())).toBe(LOOKALIKES.length);
    for (const e of odd) expect(right(await index.expand(e.id, ns)())).toEqual(e);
    expect(right(await index.expand("a", "session")())).toEqual(plain);

    const hits = right(await index.search("needle", { k: 100, namespace: ns, kinds: [kind] })());
    expect(new Set(hits.map((h) => h.id))).toEqual(new Set(LOOKALIKES));
    for (const h of hits) {
      expect(h.namespace).toBe(ns);
      expect(h.kind).toBe(kind);
      expect(isPlainText(h.snippet)).toBe(true);
    }
    expect(right(await index.search("haystack3", { namespace: ns })()).map((h) => h.id)).toEqual([LOOKALIKES[3]]);
    expect(right(await index.search("needle", { kinds: ["tool\uFFFD"] })()).map((h) => h.id)).toEqual(["a"]);
    expect(right(await index.deleteNamespace(ns)())).toBe(LOOKALIKES.length);
    expect(right(await index.count()())).toBe(1);
    right(await index.close()());
  });

  it("property: any strings in any field (and metadata) expand to exactly what was written", async () => {
    const index = await makeIndex();
    const entryArb = fc.record({
      id: anyKey,
      namespace: anyKey,
      kind: anyString,
      summary: anyString,
      content: anyString,
      tokenCost: fc.nat(),
      createdAt: fc.nat(),
      evictedAt: fc.nat(),
      metadata,
    });
    // One index for every run: an entry may land on a (namespace, id) an earlier run wrote. With
    // the same content it is an upsert; with another it is refused and the earlier one stays.
    const written = new Map<string, IndexEntry>();
    await fc.assert(
      fc.asyncProperty(entryArb, async (e: IndexEntry) => {
        const key = `${e.namespace}\u0000${e.id}`;
        const before = written.get(key);
        const r = await index.write([e])();
        if (before !== undefined && before.content !== e.content) {
          expect(left(r)._tag).toBe("IdConflict");
          expect(right(await index.expand(e.id, e.namespace)())).toEqual(before);
          return;
        }
        right(r);
        written.set(key, e);
        expect(right(await index.expand(e.id, e.namespace)())).toEqual(e);
        const hits = right(await index.search(`${e.summary} ${e.content}`, { k: 5, namespace: e.namespace })());
        for (const h of hits) expect(isPlainText(h.snippet)).toBe(true);
      }),
      { numRuns: runs(150) },
    );
    right(await index.close()());
  });
}
