// Identifiers joined by underscores are terms of their own (beside their parts), so the entry that
// holds `name_3` outranks entries that only share `name` and `3`.
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { memoryIndex } from "../src/memory.js";
import { queryTerms, tokenize } from "../src/query.js";
import { right } from "./support/contract.js";

const part = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);

describe("identifier terms", () => {
  it("a text gives its words, then each identifier joined by underscores and, past two parts, its adjacent pairs", () => {
    expect(tokenize("parse_config")).toEqual(["parse", "config", "parse_config"]);
    expect(tokenize("SECRET_3 = 3003")).toEqual(["secret", "3", "3003", "secret_3"]);
    expect(tokenize("handler_3_7(x)")).toEqual(["handler", "3", "7", "x", "handler_3_7", "handler_3", "3_7"]);
    expect(tokenize("__init__ _x a__b")).toEqual(["init", "x", "a", "b", "a__b"]);
    expect(tokenize("données_été")).toEqual(["données", "été", "données_été"]);
    expect(tokenize("日本語_x")).toEqual(["日本", "本語", "x"]);
  });

  it("property: the ASCII and the general tokenizer agree on identifiers (an ASCII-only text taken either way)", () => {
    fc.assert(
      fc.property(
        fc.array(part, { minLength: 1, maxLength: 5 }),
        fc.constantFrom("_", "__", "-", "/", "."),
        (parts, sep) => {
          const text = parts.join(sep);
          // A non-ASCII character far from the identifier sends the text down the general path.
          expect(tokenize(`${text} é`).filter((term) => term !== "é")).toEqual(tokenize(text));
        },
      ),
    );
  });

  it("property: among entries that share every part, the one holding the identifier ranks first", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(part, { minLength: 2, maxLength: 4 }),
        fc.integer({ min: 2, max: 8 }),
        async (parts, others) => {
          const target = parts.join("_");
          const index = memoryIndex();
          const filler = (i: number): string => parts.map((p, j) => `${p}_x${i}${j}`).join(" ");
          const entries = [...Array.from({ length: others }, (_, i) => filler(i)), `${filler(99)} ${target}`].map(
            (content, i) => ({
              id: `e${i}`,
              namespace: "n",
              kind: "tool",
              summary: "",
              content,
              tokenCost: 1,
              createdAt: 0,
              evictedAt: 0,
              metadata: {},
            }),
          );
          right(await index.write(entries)());
          expect(queryTerms(target)).toContain(target);
          const hits = right(await index.search(target, { k: 3, namespace: "n" })());
          expect(hits[0]?.id).toBe(`e${others}`);
        },
      ),
      { numRuns: 60 },
    );
  });
});
