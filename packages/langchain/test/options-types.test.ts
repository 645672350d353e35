// Each options type is the type of the codec that decodes it: a field added to one and not the
// other fails to compile here (.ci/tsconfig.check.json type-checks the tests).
import type * as t from "io-ts";
import { describe, expect, it } from "vitest";
import type {
  BaseStoreSummaryStoreOptionsCodec,
  BaseStoreSummaryStoreOptions,
  CompactionMiddlewareOptionsCodec,
  CompactionMiddlewareOptions,
} from "@cc/langchain";
import { assertEquals, type Equals } from "../../../.ci/support/type-equals.js";

describe("options types equal their codecs", () => {
  it("BaseStoreSummaryStoreOptions", () => {
    expect(
      assertEquals<Equals<t.TypeOf<typeof BaseStoreSummaryStoreOptionsCodec>, BaseStoreSummaryStoreOptions>>(true),
    ).toBe(true);
  });
  it("CompactionMiddlewareOptions", () => {
    expect(
      assertEquals<Equals<t.TypeOf<typeof CompactionMiddlewareOptionsCodec>, CompactionMiddlewareOptions>>(true),
    ).toBe(true);
  });
});
