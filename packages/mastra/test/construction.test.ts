// The construction rule: bad options throw the one CcError with the @cc/validate shape.
import { CcError } from "@cc/validate";
import { describe, it } from "vitest";
import { createCompactionProcessor } from "@cc/mastra";
import { expectInvalidOptions } from "../../../.ci/support/construction.js";

describe("construction", () => {
  it("createCompactionProcessor throws the one CcError carrying { _tag, subject, problems }", () => {
    expectInvalidOptions(
      CcError,
      () => createCompactionProcessor({ maxTokens: 1000, preserveLats: 2 } as never),
      "mastra compaction options",
      "preserveLats",
    );
  });
});
