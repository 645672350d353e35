// The construction rule: bad options throw the one CcError with the @cc/validate shape.
import { CcError } from "@cc/validate";
import { describe, it } from "vitest";
import { createAiSdkContext } from "@cc/ai-sdk";
import { createContextManager } from "@cc/context";
import { expectInvalidOptions } from "../../../.ci/support/construction.js";

describe("construction", () => {
  it("createAiSdkContext throws the one CcError carrying { _tag, subject, problems }", () => {
    expectInvalidOptions(
      CcError,
      () => createAiSdkContext({ manager: createContextManager({ maxTokens: 1000 }), maxExpandChar: 10 } as never),
      "AI SDK adapter options",
      "maxExpandChar",
    );
  });
});
