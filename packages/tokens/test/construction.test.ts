// The construction rule: bad options throw the one CcError with the @cc/validate shape.
import { CcError } from "@cc/validate";
import { describe, it } from "vitest";
import { estimateCounter, memoCounter, tiktokenCounter } from "@cc/tokens";
import { expectInvalidOptions } from "../../../.ci/support/construction.js";

describe("construction", () => {
  it("the counter factories throw the one CcError carrying { _tag, subject, problems }", () => {
    expectInvalidOptions(
      CcError,
      () => tiktokenCounter({ encodng: "o200k_base" } as never),
      "TiktokenOptions",
      "encodng",
    );
    expectInvalidOptions(
      CcError,
      () => estimateCounter({ encodng: "o200k_base" } as never),
      "EstimateOptions",
      "encodng",
    );
    expectInvalidOptions(
      CcError,
      () => memoCounter(estimateCounter(), { maxEntris: 5 } as never),
      "MemoOptions",
      "maxEntris",
    );
  });
});
