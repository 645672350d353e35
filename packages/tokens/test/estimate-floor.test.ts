// The estimate's documented per-text floor: never below 0.15 × the exact count on a text of 20
// tokens or more, whatever the text. The worst case is one short token per line (`a\nb\n…`: the
// letter and the newline are a token each, 0.16×); real agent output stays far above it (README,
// "The estimate": 2.2 % of the corpus' messages are more than 10 % low, the lowest at 0.69×).
// Budget decisions do not rest on the estimate: the manager counts exactly (packages/context/test/exact-budget.test.ts).
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { estimateCounter, type Encoding } from "@cc/tokens";
import { rawTiktoken } from "@cc/test-support/tokens";
import { anyText } from "./corpus/arbitraries.js";
import { numRuns } from "./corpus/runs.js";

/** The floor the README states. */
const FLOOR = 0.15;

const shortTokens = fc.string({
  unit: fc.constantFrom("a", "Q", "7", " ", "\n", "\r\n", "\t", ".", "'", "-", "_", "é", "字", "😀"),
  minLength: 20,
  maxLength: 600,
});
const listing = fc
  .array(
    fc.tuple(
      fc.constantFrom("drwxr-xr-x", "-rw-r--r--", "lrwxrwxrwx"),
      fc.nat(40),
      fc.constantFrom("root", "www-data"),
      fc.nat(99_999),
      fc.integer({ min: 1, max: 31 }),
      fc.stringMatching(/^[a-z_]{1,12}[0-9]{0,3}$/),
    ),
    { minLength: 3, maxLength: 40 },
  )
  .map((rows) =>
    rows
      .map(
        ([mode, links, user, size, day, name]) =>
          `${mode} ${String(links).padStart(2)} ${user} ${user} ${String(size).padStart(6)} Dec ${String(day).padStart(2)} 04:31 ${name}`,
      )
      .join("\n"),
  );
const shortLines = fc
  .array(fc.stringMatching(/^'?[A-Za-z0-9]{1,3}'?$/), { minLength: 10, maxLength: 120 })
  .map((lines) => lines.join("\n"));

describe.each<Encoding>(["o200k_base", "cl100k_base"])("the estimate's floor (%s)", (encoding) => {
  const raw = rawTiktoken(encoding);
  const estimate = estimateCounter({ encoding });
  afterAll(() => raw.dispose());

  it.each([
    ["text of one-character tokens", shortTokens],
    ["ls -la listings", listing],
    ["one short word per line", shortLines],
    ["any text", anyText],
  ] as const)("property: %s of 20 tokens or more is never below 0.15 × exact", (_, texts) => {
    fc.assert(
      fc.property(texts, (text) => {
        const exact = raw.count(text);
        if (exact < 20) return;
        expect(estimate.count(text)).toBeGreaterThanOrEqual(FLOOR * exact);
      }),
      { numRuns },
    );
  });

  it("the worst case is near the floor: one letter per line", () => {
    const text = "a\n".repeat(200);
    const ratio = estimate.count(text) / raw.count(text);
    expect(ratio).toBeGreaterThanOrEqual(FLOOR);
    expect(ratio).toBeLessThan(0.2);
  });
});
