import { describe, expect, it } from "vitest";
import { createEventBus, type SessionEvent, type SubscriberFailure } from "@cc/session";

const warning: SessionEvent = {
  _tag: "CompactionWarning",
  stackId: "s",
  reason: "EmptySummary",
  legacyReason: "empty_summary",
  error: null,
  fallback: "none",
  message: "m",
  at: 1,
};

describe("event bus", () => {
  it("delivers to subscribers in order and stops after unsubscribe", () => {
    const bus = createEventBus<SessionEvent>();
    const seen: string[] = [];
    const offA = bus.subscribe((e) => void seen.push(`a:${e._tag}`));
    bus.subscribe((e) => void seen.push(`b:${e._tag}`));
    bus.publish(warning);
    offA();
    offA();
    bus.publish(warning);
    expect(seen).toEqual(["a:CompactionWarning", "b:CompactionWarning", "b:CompactionWarning"]);
    expect(bus.size).toBe(1);
  });

  it("the same handler subscribed twice is two subscriptions, removed one at a time", () => {
    const bus = createEventBus<SessionEvent>();
    let n = 0;
    const handler = (): void => void n++;
    const off1 = bus.subscribe(handler);
    bus.subscribe(handler);
    off1();
    bus.publish(warning);
    expect(n).toBe(1);
  });

  it("a throwing subscriber is reported and does not stop the others", () => {
    const reported: SubscriberFailure[] = [];
    const bus = createEventBus<SessionEvent>({ onSubscriberError: (f) => void reported.push(f) });
    let after = 0;
    bus.subscribe(() => {
      throw new Error("subscriber bug");
    });
    bus.subscribe(() => void after++);
    const failures = bus.publish(warning);
    expect(after).toBe(1);
    expect(failures).toHaveLength(1);
    expect((failures[0]!.error as Error).message).toBe("subscriber bug");
    expect(reported).toEqual(failures);
  });

  it("a rejecting async subscriber is reported", async () => {
    const reported: SubscriberFailure[] = [];
    const bus = createEventBus<SessionEvent>({ onSubscriberError: (f) => void reported.push(f) });
    bus.subscribe(() => Promise.reject(new Error("async bug")));
    expect(bus.publish(warning)).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(reported.map((f) => (f.error as Error).message)).toEqual(["async bug"]);
  });

  it("a reporter that throws is contained too", () => {
    const bus = createEventBus<SessionEvent>({
      onSubscriberError: () => {
        throw new Error("reporter bug");
      },
    });
    bus.subscribe(() => {
      throw new Error("x");
    });
    expect(bus.publish(warning)).toHaveLength(1);
  });

  it("unsubscribing during delivery does not skip the others of this event", () => {
    const bus = createEventBus<SessionEvent>();
    const seen: string[] = [];
    const offA: () => void = bus.subscribe(() => {
      seen.push("a");
      offA();
    });
    bus.subscribe(() => void seen.push("b"));
    bus.publish(warning);
    bus.publish(warning);
    expect(seen).toEqual(["a", "b", "b"]);
  });
});
