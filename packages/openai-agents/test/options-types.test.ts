// Each options type is the type of the codec that decodes it: a field added to one and not the
// other fails to compile here (.ci/tsconfig.check.json type-checks the tests).
import type * as t from "io-ts";
import { describe, expect, it } from "vitest";
import type { ContextToolOptions } from "@cc/context";
import type {
  AgentsCompactionOptionsCodec,
  AgentsCompactionOptions,
  contextTools,
  SessionViewOptions,
} from "@cc/openai-agents";
import { assertEquals, type Equals } from "../../../.ci/support/type-equals.js";
import type { SessionViewOptionsCodec } from "../src/compaction.js";

describe("options types equal their codecs", () => {
  it("AgentsCompactionOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof AgentsCompactionOptionsCodec>, AgentsCompactionOptions>>(true)).toBe(
      true,
    );
  });
  it("SessionViewOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof SessionViewOptionsCodec>, SessionViewOptions>>(true)).toBe(true);
  });
  it("contextTools takes the tool core's options, less the namespace (the manager's)", () => {
    expect(
      assertEquals<Equals<Parameters<typeof contextTools>[1], Omit<ContextToolOptions, "namespace"> | undefined>>(true),
    ).toBe(true);
  });
});
