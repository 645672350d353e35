// The processor's options type is the type of its codec: a context manager option the codec does
// not take (as `policy` once was) or an option the type does not declare fails to compile here.
import type * as t from "io-ts";
import { describe, expect, it } from "vitest";
import type { ContextToolOptions as CoreToolOptions } from "@cc/context";
import type { CompactionProcessorOptionsCodec, CompactionProcessorOptions, ContextToolOptions } from "@cc/mastra";
import { assertEquals, type Equals } from "../../../.ci/support/type-equals.js";

describe("options types equal their codecs", () => {
  it("CompactionProcessorOptions", () => {
    expect(
      assertEquals<Equals<t.TypeOf<typeof CompactionProcessorOptionsCodec>, CompactionProcessorOptions>>(true),
    ).toBe(true);
  });
  it("ContextToolOptions are the tool core's, less the namespace (the manager's)", () => {
    expect(assertEquals<Equals<Omit<CoreToolOptions, "namespace">, ContextToolOptions>>(true)).toBe(true);
  });
});
