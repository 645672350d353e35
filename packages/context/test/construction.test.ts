// The construction rule: bad options throw the one CcError with the @cc/validate shape.
import { CcError } from "@cc/validate";
import { describe, it } from "vitest";
import { createContextManager } from "@cc/context";
import { expectInvalidOptions } from "../../../.ci/support/construction.js";

describe("construction", () => {
  it("createContextManager throws the one CcError carrying { _tag, subject, problems }", () => {
    expectInvalidOptions(
      CcError,
      () => createContextManager({ maxTokens: 1000, preserveLats: 2 } as never),
      "context manager options",
      "preserveLats",
    );
  });
});
