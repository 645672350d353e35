// Each options type is the type of the codec that decodes it: a field added to one and not the
// other fails to compile here (.ci/tsconfig.check.json type-checks the tests).
import type * as t from "io-ts";
import { describe, expect, it } from "vitest";
import type { TranscriptLimits } from "@cc/lcm";
import type {
  ChatSessionOptions,
  LoadContextOptions,
  PostgresStoreOptions,
  PruneSettings,
  SessionCompactionConfig,
  SessionCompactorOptions,
  SqliteStoreOptions,
} from "@cc/session";
import { assertEquals, type Equals } from "../../../.ci/support/type-equals.js";
import type { ChatSessionOptionsCodec } from "../src/chat-session.js";
import type { EventBusOptions, EventBusOptionsCodec } from "../src/events.js";
import type {
  ForceCompactInput,
  ForceCompactInputCodec,
  SessionCompactorOptionsCodec,
  TryCompactInput,
  TryCompactInputCodec,
} from "../src/compactor.js";
import type { SessionCompactionConfigCodec } from "../src/config.js";
import type { WithCompaction, WithoutCompaction } from "../src/context.js";
import type { PruneOptionsCodec, PruneSettingsCodec } from "../src/prune.js";
import type { TranscriptLimitsCodec } from "../src/shape.js";
import type { PostgresStoreOptionsCodec } from "../src/store/postgres.js";
import type { SqliteStoreOptionsCodec } from "../src/store/sqlite.js";

/** `T` with `stackId` left `unknown`: the codec passes any value on, and `checkStackId` names what is wrong with it. */
type StackIdUnchecked<T> = Omit<T, "stackId"> & { readonly stackId: unknown };

describe("options types equal their codecs", () => {
  it("ChatSessionOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof ChatSessionOptionsCodec>, ChatSessionOptions>>(true)).toBe(true);
  });
  it("SessionCompactorOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof SessionCompactorOptionsCodec>, SessionCompactorOptions>>(true)).toBe(
      true,
    );
  });
  it("SessionCompactionConfig as given (maxTokens required, the rest defaulted)", () => {
    type Given = Partial<SessionCompactionConfig> & Pick<SessionCompactionConfig, "maxTokens">;
    expect(assertEquals<Equals<t.TypeOf<typeof SessionCompactionConfigCodec>, Given>>(true)).toBe(true);
  });
  it("TryCompactInput and ForceCompactInput (stack id checked after decoding)", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof TryCompactInputCodec>, StackIdUnchecked<TryCompactInput>>>(true)).toBe(
      true,
    );
    expect(
      assertEquals<Equals<t.TypeOf<typeof ForceCompactInputCodec>, StackIdUnchecked<ForceCompactInput>>>(true),
    ).toBe(true);
  });
  it("LoadContextOptions", () => {
    expect(
      assertEquals<Equals<t.TypeOf<typeof WithCompaction> | t.TypeOf<typeof WithoutCompaction>, LoadContextOptions>>(
        true,
      ),
    ).toBe(true);
  });
  it("PruneSettings, and prune options as given (every field optional)", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof PruneSettingsCodec>, PruneSettings>>(true)).toBe(true);
    expect(assertEquals<Equals<t.TypeOf<typeof PruneOptionsCodec>, Partial<PruneSettings>>>(true)).toBe(true);
  });
  it("TranscriptLimits", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof TranscriptLimitsCodec>, TranscriptLimits>>(true)).toBe(true);
  });
  it("SqliteStoreOptions and PostgresStoreOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof SqliteStoreOptionsCodec>, SqliteStoreOptions>>(true)).toBe(true);
    expect(assertEquals<Equals<t.TypeOf<typeof PostgresStoreOptionsCodec>, PostgresStoreOptions>>(true)).toBe(true);
  });
  it("EventBusOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof EventBusOptionsCodec>, EventBusOptions>>(true)).toBe(true);
  });
});
