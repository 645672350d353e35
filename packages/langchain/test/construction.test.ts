// The construction rule: bad options throw the one CcError with the @cc/validate shape.
import { CcError } from "@cc/validate";
import { describe, it } from "vitest";
import { createContextManager } from "@cc/context";
import { compactionMiddleware } from "@cc/langchain";
import { expectInvalidOptions } from "../../../.ci/support/construction.js";

describe("construction", () => {
  it("compactionMiddleware throws the one CcError carrying { _tag, subject, problems }", () => {
    expectInvalidOptions(
      CcError,
      () =>
        compactionMiddleware({ manager: createContextManager({ maxTokens: 1000 }), maxToolResultTokns: 5 } as never),
      "compaction middleware options",
      "maxToolResultTokns",
    );
  });
});
