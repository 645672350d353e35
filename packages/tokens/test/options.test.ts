import { CcError, didYouMean } from "@cc/validate";
import { describe, expect, it } from "vitest";
import {
  countAsync,
  estimateCounter,
  gptTokenizerCounter,
  memoCounter,
  tiktokenCounter,
  TokensOptionsError,
  type InvalidOptions,
} from "@cc/tokens";
import {
  countChunked,
  decodeChunkLimits,
  decodeCountAsyncOptions,
  decodeEstimateOptions,
  decodeGptTokenizerOptions,
  decodeMemoOptions,
  decodeTiktokenOptions,
  planChunks,
} from "@cc/test-support/tokens";

const left = (result: { readonly _tag: string; readonly left?: InvalidOptions }): InvalidOptions => {
  expect(result._tag).toBe("Left");
  return result.left!;
};

describe("options are decoded strictly", () => {
  it('chunk limits of 0 are refused (they made "hello world" count 11)', () => {
    const invalid = left(decodeChunkLimits({ maxPieceChars: 0, maxChunkChars: 0 }));
    expect(invalid).toMatchObject({ _tag: "InvalidOptions", subject: "ChunkLimits" });
    expect(invalid.message).toMatch(/maxPieceChars/);
    expect(invalid.message).toMatch(/maxChunkChars/);
    expect(() => countChunked((c) => c.length, "hello world", { maxPieceChars: 0, maxChunkChars: 0 })).toThrow(CcError);
    expect(() => planChunks("hello world", { maxPieceChars: 1, maxChunkChars: Number.NaN })).toThrow(/maxChunkChars/);
  });

  it("an unknown encoding is refused (it counted as o200k)", () => {
    expect(left(decodeTiktokenOptions({ encoding: "bogus" })).problems[0]?.message).toMatch(/^encoding: .*"bogus"/);
    expect(() => tiktokenCounter({ encoding: "bogus" as "o200k_base" })).toThrow(/encoding/);
    expect(() => estimateCounter({ encoding: "bogus" as "o200k_base" })).toThrow(/encoding/);
    expect(left(decodeEstimateOptions({ encoding: "p50k_base" })).subject).toBe("EstimateOptions");
  });

  it("a typo is refused with a suggestion (it returned Right {})", () => {
    const invalid = left(decodeTiktokenOptions({ encodng: "cl100k_base" }));
    expect(invalid.subject).toBe("TiktokenOptions");
    expect(invalid.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^encodng: unknown option \(did you mean "encoding"\?\)/),
    ]);
    expect(left(decodeMemoOptions({ maxEntry: 10 })).problems[0]?.message).toMatch(/did you mean "maxEntries"/);
    expect(left(decodeCountAsyncOptions({ slicechars: 10 })).problems[0]?.message).toMatch(/did you mean "sliceChars"/);
    expect(left(decodeTiktokenOptions({ zzzzzzzz: 1 })).problems[0]?.message).toMatch(/known: encoding/);
    expect(didYouMean("maxbytes", ["maxEntries", "maxBytes"])).toBe("maxBytes");
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, -1, 0, 1.5, 2 ** 31])(
    "non-finite and out-of-range numbers are refused: %s",
    async (n) => {
      expect(left(decodeChunkLimits({ maxPieceChars: n, maxChunkChars: 100 })).problems[0]?.message).toMatch(
        /^maxPieceChars/,
      );
      expect(left(decodeMemoOptions({ maxBytes: n === 2 ** 31 ? 2 ** 60 : n })).problems[0]?.message).toMatch(
        /^maxBytes/,
      );
      expect(
        left(decodeGptTokenizerOptions({ limits: { maxPieceChars: 10, maxChunkChars: n } })).problems[0]?.message,
      ).toMatch(/^limits\.maxChunkChars/);
      if (n !== 2 ** 31)
        await expect(countAsync(estimateCounter(), "x", { sliceChars: n })).rejects.toThrow(/sliceChars/);
    },
  );

  it("unknown keys and bad values are all reported together, and non-objects are refused", () => {
    const invalid = left(decodeMemoOptions({ maxEntries: Number.NaN, maxByte: 3 }));
    expect(invalid.problems).toHaveLength(2);
    expect(left(decodeTiktokenOptions(null)).problems[0]?.message).toMatch(/^options: expected an options object/);
    expect(left(decodeTiktokenOptions([])).problems[0]?.message).toMatch(/^options/);
    expect(() => memoCounter(estimateCounter(), { maxEntrys: 5 } as never)).toThrow(/maxEntries/);
  });

  it("gptTokenizerCounter returns invalid options as a Left value, never a throw", async () => {
    const result = await gptTokenizerCounter({
      encoding: "o200k_base",
      limits: { maxPieceChars: 0, maxChunkChars: 0 },
    })();
    expect(result._tag).toBe("Left");
    if (result._tag === "Left")
      expect(result.left).toMatchObject({ _tag: "InvalidOptions", subject: "GptTokenizerOptions" });
  });

  it("valid options decode to themselves", () => {
    expect(decodeTiktokenOptions({ encoding: "cl100k_base" })).toEqual({
      _tag: "Right",
      right: { encoding: "cl100k_base" },
    });
    expect(decodeChunkLimits({ maxPieceChars: 256, maxChunkChars: 16_384 })._tag).toBe("Right");
    expect(decodeTiktokenOptions({})._tag).toBe("Right");
  });
});

describe("the failure is the InvalidOptions of @cc/validate", () => {
  it("problems are { path, message } with the field's path, and no legacy errors member", () => {
    const invalid = left(decodeGptTokenizerOptions({ limits: { maxPieceChars: 10, maxChunkChars: Number.NaN } }));
    expect(invalid.problems[0]).toMatchObject({ path: "limits.maxChunkChars", field: "maxChunkChars" });
    expect(invalid.more).toBe(0);
    expect(invalid.message).toMatch(/^invalid GptTokenizerOptions: limits\.maxChunkChars: /);
    expect("errors" in invalid).toBe(false);
  });

  it.each([
    ["tiktokenCounter", () => tiktokenCounter({ encodng: "o200k_base" } as never), "TiktokenOptions"],
    ["estimateCounter", () => estimateCounter({ encoding: "bogus" } as never), "EstimateOptions"],
    ["memoCounter", () => memoCounter(estimateCounter(), { maxEntries: Number.POSITIVE_INFINITY }), "MemoOptions"],
  ] as const)(
    "%s throws the one CcError (TokensOptionsError is its deprecated name) carrying the typed failure",
    (_name, make, subject) => {
      let thrown: unknown;
      try {
        make();
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(CcError);
      expect(thrown).toBeInstanceOf(TokensOptionsError);
      expect(thrown).toMatchObject({ _tag: "InvalidOptions", subject });
      if (thrown instanceof TokensOptionsError) {
        expect(thrown.error).toMatchObject({ _tag: "InvalidOptions", subject });
        expect(thrown.error.problems.length).toBeGreaterThan(0);
        expect(thrown.message).toContain(thrown.error.message);
      }
    },
  );
});
