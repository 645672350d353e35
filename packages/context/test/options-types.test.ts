// Each options type is the type of the codec that decodes it: a field added to one and not the
// other (the way `policy` went missing from an adapter's codec) fails to compile here.
import type * as t from "io-ts";
import { describe, expect, it } from "vitest";
import type { ContextManagerOptionsCodec, ContextManagerOptions } from "@cc/context";
import { assertEquals, type Equals } from "../../../.ci/support/type-equals.js";

describe("options types equal their codecs", () => {
  it("ContextManagerOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof ContextManagerOptionsCodec>, ContextManagerOptions>>(true)).toBe(true);
  });
});
