// The construction rule: bad options throw the one CcError with the @cc/validate shape.
import { CcError } from "@cc/validate";
import { describe, it } from "vitest";
import { offlineProvider } from "@cc/lcm";
import { createChatSession, createEventBus, createSessionCompactor, memoryStore } from "@cc/session";
import { expectInvalidOptions } from "../../../.ci/support/construction.js";

describe("construction", () => {
  it("createChatSession, createSessionCompactor and createEventBus throw the one CcError carrying { _tag, subject, problems }", () => {
    const compactor = {
      tryCompact: () => () => Promise.reject(new Error("unused")),
      forceCompact: () => () => Promise.reject(new Error("unused")),
    };
    expectInvalidOptions(
      CcError,
      () => createChatSession({ store: memoryStore(), compactor, stackId: "s", systemPromt: "x" } as never),
      "chat session options",
      "systemPromt",
    );
    expectInvalidOptions(
      CcError,
      () =>
        createSessionCompactor({
          store: memoryStore(),
          provider: offlineProvider(),
          config: { maxTokens: 1000, thresold: 0.8 },
        } as never),
      "session compaction config",
      "thresold",
    );
    expectInvalidOptions(
      CcError,
      () => createEventBus({ onSubscriberErr: () => undefined } as never),
      "event bus options",
      "onSubscriberErr",
    );
  });
});
