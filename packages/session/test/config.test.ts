import * as E from "fp-ts/lib/Either.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeSessionConfig, sessionConfigDefaults } from "@cc/session";
import { runs } from "./support.js";

const problems = (input: unknown): readonly string[] => {
  const r = decodeSessionConfig(input);
  if (E.isRight(r)) expect.fail(`expected the config to be rejected: ${JSON.stringify(input)}`);
  expect(r.left).toMatchObject({ _tag: "InvalidOptions", subject: "session compaction config" });
  expect(r.left.message).toBe(`invalid session compaction config: ${r.left.problems.map((p) => p.message).join("; ")}`);
  return r.left.problems.map((p) => p.message);
};

describe("session compaction config", () => {
  it("needs only maxTokens; threshold defaults to 0.8, preserveLast to 6, temperature to 0.3, fallback to truncate", () => {
    expect(decodeSessionConfig({ maxTokens: 32000 })).toEqual(
      E.right({
        maxTokens: 32000,
        threshold: 0.8,
        preserveLast: 6,
        temperature: 0.3,
        maxSummaryTokens: sessionConfigDefaults.maxSummaryTokens,
        fallback: "truncate",
      }),
    );
  });

  it("accepts fallback none or truncate and explains any other value", () => {
    expect(decodeSessionConfig({ maxTokens: 100, fallback: "none" })).toMatchObject(E.right({ fallback: "none" }));
    expect(decodeSessionConfig({ maxTokens: 100, fallback: "truncate" })).toMatchObject(
      E.right({ fallback: "truncate" }),
    );
    for (const bad of ["Truncate", "", 3, null, true]) {
      const [line] = problems({ maxTokens: 100, fallback: bad });
      expect(line).toMatch(/^fallback: expected "truncate" .* or "none"/);
    }
    expect(problems({ maxTokens: 100, Fallback: "none" })).toEqual([
      "Fallback: unknown field (did you mean fallback?)",
    ]);
  });

  it("keeps optional strength, model and timeout", () => {
    expect(
      decodeSessionConfig({
        maxTokens: 5000,
        threshold: 1,
        preserveLast: 10,
        strength: "low",
        model: "m",
        timeoutMs: 30000,
      }),
    ).toMatchObject(
      E.right({ maxTokens: 5000, threshold: 1, preserveLast: 10, strength: "low", model: "m", timeoutMs: 30000 }),
    );
  });

  it("says maxTokens is required, and why", () => {
    const [line] = problems({ preserveLast: 6 });
    expect(line).toMatch(
      /^maxTokens: expected a whole number of tokens ≥ 1 — the model's input budget .* got undefined$/,
    );
  });

  it("caps the default summary budget at a quarter of the trigger and refuses one that would retrigger", () => {
    expect(decodeSessionConfig({ maxTokens: 1000, threshold: 1 })).toMatchObject(E.right({ maxSummaryTokens: 250 }));
    expect(decodeSessionConfig({ maxTokens: 1000 })).toMatchObject(E.right({ maxSummaryTokens: 200 }));
    expect(decodeSessionConfig({ maxTokens: 20, threshold: 1 })).toMatchObject(E.right({ maxSummaryTokens: 16 }));
    expect(problems({ maxTokens: 1000, threshold: 1, maxSummaryTokens: 1000 })).toEqual([
      "maxSummaryTokens: 1000 must be below the trigger threshold × maxTokens (1000); a summary that large would trigger compaction again on every turn",
    ]);
    expect(problems({ maxTokens: 1000, maxSummaryTokens: 800 })[0]).toContain("(800)");
  });

  it("names each bad field with what was given", () => {
    const lines = problems({
      maxTokens: Number.NaN,
      preserveLast: -2,
      strength: "medium",
      temperature: 7,
      threshold: 1.5,
    });
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^maxTokens: expected a whole number .* got NaN$/),
        expect.stringMatching(/^preserveLast: expected a whole number ≥ 1 .* got -2$/),
        expect.stringMatching(/^strength: expected one of very_low, low, average, high, very_high, got "medium"$/),
        expect.stringMatching(/^temperature: expected a finite number in \[0, 2\], got 7$/),
        expect.stringMatching(/^threshold: expected a number in \(0, 1\] .* got 1.5$/),
      ]),
    );
  });

  it("rejects a typo key, NaN, ±Infinity and negatives in every numeric setting", () => {
    const numeric = ["maxTokens", "threshold", "preserveLast", "temperature", "maxSummaryTokens", "timeoutMs"] as const;
    for (const key of numeric) {
      for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1]) {
        expect(problems({ maxTokens: 32000, [key]: bad })).toEqual([
          expect.stringMatching(new RegExp(`^${key}: expected .* got ${String(bad)}$`)),
        ]);
      }
    }
    expect(problems({ maxTokens: 32000, preservLast: 4 })).toEqual([
      "preservLast: unknown field (did you mean preserveLast?)",
    ]);
  });

  it("rejects huge, fractional, infinite and string numbers", () => {
    for (const bad of [Number.MAX_SAFE_INTEGER + 2, 1.5, Number.POSITIVE_INFINITY, "30000", 0, -1]) {
      expect(problems({ maxTokens: bad })[0]).toMatch(/^maxTokens: /);
    }
  });

  it("points out the old and snake_case names instead of ignoring them", () => {
    expect(problems({ max_tokens: 30000 })).toEqual(
      expect.arrayContaining(["max_tokens: unknown field (did you mean maxTokens?)"]),
    );
    expect(problems({ maxTokens: 30000, keepRecent: 6 })).toEqual([
      expect.stringMatching(/^keepRecent: unknown field/),
    ]);
    expect(problems({ thresholdTokens: 30000 })).toEqual(
      expect.arrayContaining([expect.stringMatching(/^thresholdTokens: unknown field/)]),
    );
  });

  it("rejects a non-object with an example of the right shape", () => {
    expect(problems(null)[0]).toContain("{ maxTokens: 32000 }");
    expect(problems([1])[0]).toContain("an array");
    expect(problems("🧠\ud800")[0]).toContain("expected an object");
  });

  it("property: decoding accepts exactly the positive whole budgets", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.double(), fc.string()), (maxTokens) => {
        const ok = typeof maxTokens === "number" && Number.isSafeInteger(maxTokens) && maxTokens >= 1;
        expect(E.isRight(decodeSessionConfig({ maxTokens }))).toBe(ok);
      }),
      { numRuns: runs(300) },
    );
  });
});

describe("decodeSessionConfig's documented examples", () => {
  it("applies the defaults, and names a misspelt field with the known one it resembles", () => {
    expect(decodeSessionConfig({ maxTokens: 32000 })).toMatchObject({
      _tag: "Right",
      right: { maxTokens: 32000, threshold: 0.8, preserveLast: 6 },
    });
    expect(E.isRight(decodeSessionConfig({ maxTokens: 32000, preserveLast: 6 }))).toBe(true);
    expect(decodeSessionConfig({ maxTokens: 32000, preserveLst: 6 })).toMatchObject({
      _tag: "Left",
      left: {
        _tag: "InvalidOptions",
        problems: [{ path: "preserveLst", message: "preserveLst: unknown field (did you mean preserveLast?)" }],
      },
    });
  });
});
