import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createContextManager, type ContextEvent } from "@cc/context";
import { createEventBus } from "@cc/session";
import { describe, expect, it } from "vitest";
import { billOf, scoreTurn, turnsOf } from "../cost/accounting.js";
import { renderBarChart } from "../cost/chart.js";
import { chatMessagesOnly } from "../cost/corpus.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

describe("cost benchmark accounting", () => {
  it("bills the leading messages shared with the previous request as cached, the rest as uncached", () => {
    expect(billOf([], ["a", "b"], [10, 5])).toEqual({ cachedTokens: 0, uncachedTokens: 15 });
    expect(billOf(["a", "b"], ["a", "b", "c"], [10, 5, 7])).toEqual({ cachedTokens: 15, uncachedTokens: 7 });
    // A changed message breaks the cache from there on, even when later messages match again.
    expect(billOf(["a", "x", "c"], ["a", "b", "c"], [10, 5, 7])).toEqual({ cachedTokens: 10, uncachedTokens: 12 });
  });

  it("a turn is a user or assistant message with the tool results after it", () => {
    const turns = turnsOf([
      { role: "system", content: "s" },
      { role: "user", content: "u" },
      { role: "assistant", content: "a", toolCalls: [{ id: "c1", name: "bash", arguments: "{}" }] },
      { role: "tool", toolCallId: "c1", content: "r" },
    ]);
    expect(turns.map((t) => t.map((m) => m.role))).toEqual([["system"], ["user"], ["assistant", "tool"]]);
  });

  it("retention: a reference counts as kept when its origin is in this turn's prompt or arrived in the same turn", () => {
    const keys = ["m0", "m1", "m2", "m3"];
    const refs = [
      { at: 3, origin: 1 },
      { at: 3, origin: 0 },
      { at: 3, origin: 2 },
      { at: 2, origin: 1 },
    ];
    expect(scoreTurn(refs, 2, 4, keys, new Set(["m1"]))).toEqual({ kept: 3, total: 4 });
  });

  it("mini-swe-agent documents: roles outside the chat model are left out and counted", () => {
    expect(
      chatMessagesOnly({
        messages: [
          { role: "user", content: "x" },
          { role: "exit", content: "" },
        ],
      }),
    ).toEqual({ messages: [{ role: "user", content: "x" }], dropped: 1 });
    expect(chatMessagesOnly([1, 2])).toBeUndefined();
  });

  it("the chart draws one bar per policy and sheet, escapes text and skips unusable values", () => {
    const svg = renderBarChart("a <b>", "USD", [
      {
        label: "with caching",
        bars: [
          { policy: "cost", value: 1, note: "90%" },
          { policy: "threshold", value: Number.NaN, note: "x" },
        ],
      },
    ]);
    expect(svg).toContain("a &lt;b&gt;");
    expect((svg.match(/<rect x=/g) ?? []).length).toBe(1 + 2); // one bar, two legend swatches
  });
});

describe("decisions on the session event bus", () => {
  it("a @cc/session EventBus is the manager's event sink: one CompactionDecided per turn; a failing subscriber is a warning", async () => {
    const bus = createEventBus<ContextEvent>({ onSubscriberError: () => undefined });
    const seen: ContextEvent[] = [];
    bus.subscribe((e) => {
      seen.push(e);
    });
    const manager = createContextManager({
      maxTokens: 1000,
      policy: { kind: "hermes" },
      events: bus,
      namespace: "bus",
    });
    const first = await manager.compact([{ role: "user", content: "hello" }]);
    expect(seen).toEqual([{ _tag: "CompactionDecided", namespace: "bus", turn: 1, decision: first.decision }]);
    bus.subscribe(() => {
      throw new Error("subscriber down");
    });
    const second = await manager.compact([
      { role: "user", content: "hello" },
      { role: "assistant", content: "hi" },
    ]);
    expect(seen).toHaveLength(2);
    expect(second.warnings).toEqual([
      { _tag: "EventPublishFailed", event: "CompactionDecided", message: "1 subscriber(s) failed" },
    ]);
  });
});

describe("byte-stable prompts across a process restart", () => {
  it("a manager resumed from a SQLite session store renders the same prompt bytes as one that never stopped", () => {
    const dir = mkdtempSync(join(tmpdir(), "cc-restart-"));
    const run = (db: string, from: number, to: number): { turn: number; compacted: boolean; prompt: unknown[] }[] => {
      const r = spawnSync(
        process.execPath,
        [
          "--import",
          "tsx",
          "--conditions=development",
          join(root, "bench/cost/restart-probe.ts"),
          db,
          String(from),
          String(to),
        ],
        { cwd: root, encoding: "utf8" },
      );
      expect(r.status, r.stderr).toBe(0);
      return r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { turn: number; compacted: boolean; prompt: unknown[] });
    };
    try {
      const straight = run(join(dir, "straight.db"), 0, 24);
      const restarted = [...run(join(dir, "restarted.db"), 0, 12), ...run(join(dir, "restarted.db"), 12, 24)];
      expect(straight.filter((t) => t.compacted).length).toBeGreaterThan(1);
      // The restart falls between compactions: turn 12 re-uses the prefix compacted before it.
      expect(straight.slice(0, 12).some((t) => t.compacted)).toBe(true);
      expect(restarted.map((t) => JSON.stringify(t.prompt))).toEqual(straight.map((t) => JSON.stringify(t.prompt)));
      // Between compactions every prompt starts with the previous prompt's bytes.
      for (let i = 1; i < straight.length; i++) {
        if (straight[i]!.compacted) continue;
        const before = JSON.stringify(straight[i - 1]!.prompt).slice(0, -1);
        expect(JSON.stringify(straight[i]!.prompt).startsWith(before)).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
