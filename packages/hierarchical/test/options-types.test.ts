// Each options type is the type of the codec that decodes it: a field added to one and not the
// other fails to compile here (.ci/tsconfig.check.json type-checks the tests).
import type * as t from "io-ts";
import { describe, expect, it } from "vitest";
import type { EvictionOptions, EvictionRunOptions } from "@cc/hierarchical";
import { assertEquals, type Equals } from "../../../.ci/support/type-equals.js";
import type { EvictionOptionsCodec, EvictionRunOptionsCodec } from "../src/strategy/options.js";

describe("options types equal their codecs", () => {
  it("EvictionOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof EvictionOptionsCodec>, EvictionOptions>>(true)).toBe(true);
  });
  it("EvictionRunOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof EvictionRunOptionsCodec>, EvictionRunOptions>>(true)).toBe(true);
  });
});
