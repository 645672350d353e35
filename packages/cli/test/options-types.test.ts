// Each options type is the type of the codec that decodes it: a field added to one and not the
// other fails to compile here (.ci/tsconfig.check.json type-checks the tests).
import type * as t from "io-ts";
import { describe, expect, it } from "vitest";
import type { ReadOptions } from "@cc/cli";
import { assertEquals, type Equals } from "../../../.ci/support/type-equals.js";
import type { ReadOptionsCodec } from "../src/formats/read.js";

describe("options types equal their codecs", () => {
  it("ReadOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof ReadOptionsCodec>, ReadOptions>>(true)).toBe(true);
  });
});
