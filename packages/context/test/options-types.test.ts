// Each options type is the type of the codec that decodes it: a field added to one and not the
// other (the way `policy` went missing from an adapter's codec) fails to compile here.
import type * as t from "io-ts";
import { describe, expect, it } from "vitest";
import type {
  CompactCallOptions,
  ContextManagerOptionsCodec,
  ContextManagerOptions,
  ContextToolOptions,
  PolicyOptions,
} from "@cc/context";
import type { AgentCompactorOptions, JournalToolOptions, PromptCompressorOptions } from "@cc/context/compat";
import type { JournalToolOptionsCodec } from "../src/compat/journal.js";
import type { ContextToolOptionsCodec } from "../src/tools.js";
import { assertEquals, type Equals } from "../../../.ci/support/type-equals.js";
import type { AgentCompactorOptionsCodec } from "../src/compat/agent.js";
import type { PromptCompressorOptionsCodec } from "../src/compat/prompt.js";
import type { CompactCallOptionsCodec } from "../src/manager.js";
import type { PolicyOptionsCodec } from "../src/policy/settings.js";

describe("options types equal their codecs", () => {
  it("ContextManagerOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof ContextManagerOptionsCodec>, ContextManagerOptions>>(true)).toBe(true);
  });
  it("PolicyOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof PolicyOptionsCodec>, PolicyOptions>>(true)).toBe(true);
  });
  it("AgentCompactorOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof AgentCompactorOptionsCodec>, AgentCompactorOptions>>(true)).toBe(true);
  });
  it("PromptCompressorOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof PromptCompressorOptionsCodec>, PromptCompressorOptions>>(true)).toBe(
      true,
    );
  });
  it("ContextToolOptions and the deprecated JournalToolOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof ContextToolOptionsCodec>, ContextToolOptions>>(true)).toBe(true);
    expect(assertEquals<Equals<t.TypeOf<typeof JournalToolOptionsCodec>, JournalToolOptions>>(true)).toBe(true);
  });
  it("CompactCallOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof CompactCallOptionsCodec>, CompactCallOptions>>(true)).toBe(true);
  });
});
