// The construction rule: bad options throw the one CcError with the @cc/validate shape.
import { describe, it } from "vitest";
import { CcError, decodeOrThrow, decodeWith, intIn, objectCodec } from "@cc/validate";
import { expectInvalidOptions } from "../../../.ci/support/construction.js";

describe("construction", () => {
  it("decodeOrThrow throws the one CcError carrying { _tag, subject, problems }", () => {
    const decode = decodeWith(
      objectCodec("RetryOptions", {}, { maxRetries: intIn(0, 20) }),
      "InvalidOptions",
      "retry options",
    );
    expectInvalidOptions(CcError, () => decodeOrThrow(decode, { maxRetry: 3 }), "retry options", "maxRetry");
  });
});
