// The construction rule: bad options throw the one CcError with the @cc/validate shape.
import { CcError } from "@cc/validate";
import { describe, it } from "vitest";
import { createContextManager } from "@cc/context";
import { createAgentsCompaction } from "@cc/openai-agents";
import { expectInvalidOptions } from "../../../.ci/support/construction.js";

describe("construction", () => {
  it("createAgentsCompaction throws the one CcError carrying { _tag, subject, problems }", () => {
    expectInvalidOptions(
      CcError,
      () => createAgentsCompaction({ manager: createContextManager({ maxTokens: 1000 }), maxExpandChar: 10 } as never),
      "openai-agents options",
      "maxExpandChar",
    );
  });
});
