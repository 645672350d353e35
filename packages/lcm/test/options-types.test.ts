// Each options type is the type of the codec that decodes it: a field added to one and not the
// other fails to compile here (.ci/tsconfig.check.json type-checks the tests).
import type * as t from "io-ts";
import { describe, expect, it } from "vitest";
import type {
  CompactOptions,
  HttpProviderOptions,
  LcmCompactorOptions,
  OfflineProviderOptions,
  TruncateOptions,
} from "@cc/lcm";
import { assertEquals, type Equals } from "../../../.ci/support/type-equals.js";
import type { LcmCompactorOptionsCodec } from "../src/compactor.js";
import type { CompactOptionsInputCodec } from "../src/options.js";
import type { HttpProviderOptionsCodec } from "../src/providers/http-options.js";
import type { OfflineProviderOptionsCodec } from "../src/providers/offline.js";
import type { TruncateOptionsCodec } from "../src/truncate.js";

describe("options types equal their codecs", () => {
  it("HttpProviderOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof HttpProviderOptionsCodec>, HttpProviderOptions>>(true)).toBe(true);
  });
  it("LcmCompactorOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof LcmCompactorOptionsCodec>, LcmCompactorOptions>>(true)).toBe(true);
  });
  it("compact options as given (every field optional, defaults applied after decoding)", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof CompactOptionsInputCodec>, Partial<CompactOptions>>>(true)).toBe(true);
  });
  it("OfflineProviderOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof OfflineProviderOptionsCodec>, OfflineProviderOptions>>(true)).toBe(true);
  });
  it("TruncateOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof TruncateOptionsCodec>, TruncateOptions>>(true)).toBe(true);
  });
});
