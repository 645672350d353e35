// The construction rule: bad options throw the one CcError with the @cc/validate shape.
import { PassThrough } from "node:stream";
import { CcError } from "@cc/validate";
import { describe, it } from "vitest";
import { memoryIndex } from "@cc/search";
import { createIndexServer, createStdioTransport } from "@cc/mcp";
import { expectInvalidOptions } from "../../../.ci/support/construction.js";

describe("construction", () => {
  it("createIndexServer and createStdioTransport throw the one CcError carrying { _tag, subject, problems }", () => {
    expectInvalidOptions(
      CcError,
      () => createIndexServer(memoryIndex(), { namepsace: "s" } as never),
      "MCP server options",
      "namepsace",
    );
    expectInvalidOptions(
      CcError,
      () => createStdioTransport(new PassThrough(), new PassThrough(), { maxRequestByte: 12 } as never),
      "MCP stdio transport options",
      "maxRequestByte",
    );
  });
});
