// Each options type is the type of the codec that decodes it: a field added to one and not the
// other fails to compile here (.ci/tsconfig.check.json type-checks the tests).
import type * as t from "io-ts";
import { describe, expect, it } from "vitest";
import type { CountAsyncOptions, EstimateOptions, GptTokenizerOptions, MemoOptions, TiktokenOptions } from "@cc/tokens";
import { assertEquals, type Equals } from "../../../.ci/support/type-equals.js";
import type {
  CountAsyncOptionsCodec,
  EstimateOptionsCodec,
  GptTokenizerOptionsCodec,
  MemoOptionsCodec,
  TiktokenOptionsCodec,
} from "../src/options.js";

describe("options types equal their codecs", () => {
  it("TiktokenOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof TiktokenOptionsCodec>, TiktokenOptions>>(true)).toBe(true);
  });
  it("EstimateOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof EstimateOptionsCodec>, EstimateOptions>>(true)).toBe(true);
  });
  it("MemoOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof MemoOptionsCodec>, MemoOptions>>(true)).toBe(true);
  });
  it("GptTokenizerOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof GptTokenizerOptionsCodec>, GptTokenizerOptions>>(true)).toBe(true);
  });
  it("CountAsyncOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof CountAsyncOptionsCodec>, CountAsyncOptions>>(true)).toBe(true);
  });
});
