// The construction rule: bad options throw the one CcError with the @cc/validate shape.
import { CcError } from "@cc/validate";
import { describe, it } from "vitest";
import { createLcmCompactor, offlineProvider } from "@cc/lcm";
import { expectInvalidOptions } from "../../../.ci/support/construction.js";

describe("construction", () => {
  it("createLcmCompactor and offlineProvider throw the one CcError carrying { _tag, subject, problems }", () => {
    expectInvalidOptions(
      CcError,
      () => createLcmCompactor({ timeoutMS: 5 } as never),
      "compactor options",
      "timeoutMS",
    );
    expectInvalidOptions(
      CcError,
      () => offlineProvider({ defaultMaxTokns: 500 } as never),
      "offline provider options",
      "defaultMaxTokns",
    );
  });
});
