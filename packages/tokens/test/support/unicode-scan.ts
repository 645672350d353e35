/**
 * The scan of every code point against `encode_ordinary`, one test file per encoding (so the two
 * run side by side).
 */
import { afterAll, describe, expect, it } from "vitest";
import { rawTiktoken } from "@cc/test-support/tokens";
import { tiktokenCounter, type Encoding } from "@cc/tokens";

/**
 * The contexts each code point `c` is counted in, as one line: a contraction after it (`c's` at a
 * line start, `xc't` inside a word), an upper-case letter before it (`Ac`), lower-case letters
 * around it (`acb`: splits when `c` is upper-case only), upper and lower after it (`cAb`: splits
 * when `c` is lower-case only), punctuation before it (`..c`: a mark joins the punctuation, a
 * letter does not), digits around it (`c1`, `1c2`: a number joins the digit group), itself twice
 * before a letter (`cca`: white space gives its last one to the word), an apostrophe before it
 * (`'c`: case-fold partners of a contraction letter), and a newline before it.
 */
export const contexts = (c: string): string =>
  `${c}'s x${c}'t A${c} a${c}b ${c}Ab ..${c} ${c}1 1${c}2 ${c}${c}a '${c}\n${c}`;

/**
 * The contexts of a code point the runtime knows as unassigned, private-use or a surrogate
 * (Cn, Co, Cs: six sevenths of all code points, never a letter, mark, number or space in an
 * older Unicode version): `xc't` splits differently when `c` is a letter or a mark, `..c1` when
 * it is a number or white space.
 */
export const fewContexts = (c: string): string => `x${c}'t ..${c}1`;

const unassigned = /^[\p{Cn}\p{Co}\p{Cs}]$/u;

/** Code points per batch (one count per batch and encoding). */
const batch = 2048;

/** The 17 planes, each scanned by a test of its own. */
const planes = Array.from({ length: 17 }, (_, p) => p);

/** Defines the scan's tests for `encoding`. */
export function describeCodePointScan(encoding: Encoding): void {
  describe(`every code point splits as tiktoken splits it (${encoding})`, () => {
    const raw = rawTiktoken(encoding);
    const counter = tiktokenCounter({ encoding });
    afterAll(() => {
      counter.dispose();
      raw.dispose();
    });

    it("letters new in Unicode 17 (U+088F, U+1ACF, U+A7CE, U+323B0) are not letters to tiktoken, nor to the counter", () => {
      for (const c of ["\u088f", "\u1acf", "\ua7ce", "\u{323b0}", "\u{33479}"]) {
        for (const text of [`${c}'s`, `x${c}'t`, `A${c}`, ` ${c}`, `a${c}b`])
          expect([text, counter.count(text)]).toEqual([text, raw.count(text)]);
      }
      expect(counter.count("\u{323B0}'s")).toBe(raw.count("\u{323B0}'s"));
    });

    it.each(planes)(
      "plane %i: every code point counted as encode_ordinary counts it, in 11 contexts (2 when unassigned)",
      (plane) => {
        const wrong: string[] = [];
        const end = plane * 0x10000 + 0xffff;
        for (let first = plane * 0x10000; first <= end; first += batch) {
          const last = Math.min(end, first + batch - 1);
          const parts: string[] = [];
          for (let cp = first; cp <= last; cp++) {
            const c = String.fromCodePoint(cp);
            parts.push(unassigned.test(c) ? fewContexts(c) : contexts(c));
          }
          const text = parts.join("\n");
          if (counter.count(text) === raw.count(text)) continue;
          // Name the code points that differ on their own (the batch differing is reported too).
          const alone = parts.flatMap((p, k) =>
            counter.count(p) === raw.count(p) ? [] : [`U+${(first + k).toString(16).toUpperCase().padStart(4, "0")}`],
          );
          wrong.push(
            ...(alone.length > 0
              ? alone
              : [`U+${first.toString(16).toUpperCase()}…U+${last.toString(16).toUpperCase()} (together only)`]),
          );
        }
        expect(wrong.length === 0 ? "none" : `${wrong.length}: ${wrong.slice(0, 40).join(" ")}`).toBe("none");
      },
    );
  });
}
