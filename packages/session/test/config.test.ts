import * as E from "fp-ts/lib/Either.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeSessionConfig, sessionConfigDefaults } from "@cc/session";
import { runs } from "./support.js";

const problems = (input: unknown): readonly string[] => {
  const r = decodeSessionConfig(input);
  if (E.isRight(r)) expect.fail(`expected the config to be rejected: ${JSON.stringify(input)}`);
  return r.left.problems;
};

describe("session compaction config", () => {
  it("needs only thresholdTokens; keepRecent defaults to 6, temperature to 0.3, fallback to truncate", () => {
    expect(decodeSessionConfig({ thresholdTokens: 30000 })).toEqual(
      E.right({ thresholdTokens: 30000, keepRecent: 6, temperature: 0.3, maxSummaryTokens: sessionConfigDefaults.maxSummaryTokens, fallback: "truncate" }),
    );
  });

  it("accepts fallback none or truncate and explains any other value", () => {
    expect(decodeSessionConfig({ thresholdTokens: 100, fallback: "none" })).toMatchObject(E.right({ fallback: "none" }));
    expect(decodeSessionConfig({ thresholdTokens: 100, fallback: "truncate" })).toMatchObject(E.right({ fallback: "truncate" }));
    for (const bad of ["Truncate", "", 3, null, true]) {
      const [line] = problems({ thresholdTokens: 100, fallback: bad });
      expect(line).toMatch(/^compaction\.fallback must be "truncate" .* or "none"/);
    }
    expect(problems({ thresholdTokens: 100, Fallback: "none" })).toEqual(["compaction.Fallback is not a setting; did you mean fallback?"]);
  });

  it("keeps optional strength, model and timeout", () => {
    expect(decodeSessionConfig({ thresholdTokens: 5000, keepRecent: 10, strength: "low", model: "m", timeoutMs: 30000 })).toMatchObject(
      E.right({ thresholdTokens: 5000, keepRecent: 10, strength: "low", model: "m", timeoutMs: 30000 }),
    );
  });

  it("says the threshold is required, and why", () => {
    const [line] = problems({ keepRecent: 6 });
    expect(line).toMatch(/^compaction\.thresholdTokens is required: must be a whole number of tokens ≥ 1/);
  });

  it("caps the default summary budget at a quarter of the threshold and refuses one that would retrigger", () => {
    expect(decodeSessionConfig({ thresholdTokens: 1000 })).toMatchObject(E.right({ maxSummaryTokens: 250 }));
    expect(decodeSessionConfig({ thresholdTokens: 20 })).toMatchObject(E.right({ maxSummaryTokens: 16 }));
    expect(problems({ thresholdTokens: 1000, maxSummaryTokens: 1000 })).toEqual([
      "compaction.maxSummaryTokens (1000) must be below compaction.thresholdTokens (1000); a summary that large would trigger compaction again on every turn",
    ]);
  });

  it("names each bad field with what was given", () => {
    const lines = problems({ thresholdTokens: Number.NaN, keepRecent: -2, strength: "medium", temperature: 7 });
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^compaction\.thresholdTokens must be a whole number .* got NaN$/),
        expect.stringMatching(/^compaction\.keepRecent must be a whole number ≥ 1 .* got -2$/),
        expect.stringMatching(/^compaction\.strength must be one of very_low, low, average, high, very_high, got "medium"$/),
        expect.stringMatching(/^compaction\.temperature must be a number from 0 to 2 .* got 7$/),
      ]),
    );
  });

  it("rejects huge, fractional, infinite and string numbers", () => {
    for (const bad of [Number.MAX_SAFE_INTEGER + 2, 1.5, Number.POSITIVE_INFINITY, "30000", 0, -1]) {
      expect(problems({ thresholdTokens: bad })[0]).toContain("compaction.thresholdTokens");
    }
  });

  it("points out a snake_case typo instead of ignoring it", () => {
    expect(problems({ threshold_tokens: 30000 })).toEqual(
      expect.arrayContaining(["compaction.threshold_tokens is not a setting; did you mean thresholdTokens?"]),
    );
  });

  it("rejects a non-object with an example of the right shape", () => {
    expect(problems(null)[0]).toContain("{ thresholdTokens: 30000 }");
    expect(problems([1])[0]).toContain("an array");
    expect(problems("🧠\ud800")[0]).toContain("must be an object");
  });

  it("property: decoding accepts exactly the positive whole thresholds", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.double(), fc.string()), (threshold) => {
        const ok = typeof threshold === "number" && Number.isSafeInteger(threshold) && threshold >= 1;
        expect(E.isRight(decodeSessionConfig({ thresholdTokens: threshold }))).toBe(ok);
      }),
      { numRuns: runs(300) },
    );
  });
});
