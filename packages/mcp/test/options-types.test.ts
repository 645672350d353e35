// Each options type is the type of the codec that decodes it: a field added to one and not the
// other fails to compile here (.ci/tsconfig.check.json type-checks the tests).
import type * as t from "io-ts";
import { describe, expect, it } from "vitest";
import type {
  IndexServerOptionsCodec,
  IndexServerOptions,
  StdioTransportOptionsCodec,
  StdioTransportOptions,
} from "@cc/mcp";
import { assertEquals, type Equals } from "../../../.ci/support/type-equals.js";

describe("options types equal their codecs", () => {
  it("IndexServerOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof IndexServerOptionsCodec>, IndexServerOptions>>(true)).toBe(true);
  });
  it("StdioTransportOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof StdioTransportOptionsCodec>, StdioTransportOptions>>(true)).toBe(true);
  });
});
