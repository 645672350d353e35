// Faults: the store fails mid-save, the summariser fails, the process restarts between turns.
// Each time nothing stored is lost or duplicated, and the next turn still compacts correctly.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createEventBus,
  decodeSessionCompactor,
  memoryStore,
  openPostgresStore,
  openSqliteStore,
  type SessionEvent,
  type SummaryStore,
} from "@cc/session";
import { type Provider } from "@cc/messages";
import { chat } from "./conversation.js";
import { scriptedProvider, type Reply } from "./scripted.js";
import { freshDatabase, guardedClient, left, right } from "./support.js";

function compactorFor(
  store: SummaryStore,
  provider: Provider,
  config: unknown = { maxTokens: 100, threshold: 1, preserveLast: 4 },
) {
  const seen: SessionEvent[] = [];
  const events = createEventBus<SessionEvent>();
  events.subscribe((e) => void seen.push(e));
  const made = decodeSessionCompactor({ store, provider, config, events, now: () => 42 });
  if (E.isLeft(made)) throw new Error(made.left.message);
  return { compactor: made.right, seen };
}

/** Every message id and content of the stack, and the summary chain (id, previous, watermark). */
async function snapshot(store: SummaryStore, stackId: string) {
  const messages = (await right(store.messagesAfter(stackId, 0))).map((m) => [m.id, m.message.content]);
  const latest = await right(store.latestSummary(stackId));
  return { messages, latest: O.toUndefined(latest) };
}

describe("fallback none: summariser failures leave the store untouched; the next turn compacts", () => {
  const failures: readonly [string, Reply][] = [
    ["typed transient error", { error: { _tag: "ProviderTransientError", status: 503, message: "overloaded" } }],
    ["auth error", { error: { _tag: "ProviderAuthError", status: 401, message: "bad key" } }],
    ["a throw", { throws: "provider bug" }],
    ["a rejection", { rejects: "socket hang up" }],
  ];
  for (const [label, reply] of failures) {
    it(label, async () => {
      const store = memoryStore();
      const provider = scriptedProvider([reply, { text: "recovered" }]);
      const { compactor, seen } = compactorFor(store, provider, {
        maxTokens: 100,
        threshold: 1,
        preserveLast: 4,
        fallback: "none",
      });
      await right(store.append("s", chat(10), 1));
      const before = await snapshot(store, "s");
      expect(await left(compactor.tryCompact({ stackId: "s", lastInputTokens: 500 }))).toMatchObject({
        _tag: "SummariserFailed",
      });
      expect(seen.map((e) => e._tag)).toEqual(["CompactionFailed"]);
      expect(await snapshot(store, "s")).toEqual(before);
      expect(await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 500 }))).toMatchObject({
        _tag: "Compacted",
        summary: { coversUpTo: 6, content: "recovered", previousId: null },
      });
    });
  }

  it("a summariser that hangs past timeoutMs is cut off", async () => {
    const hanging: Provider = {
      name: "hanging",
      complete: () => () => new Promise(() => undefined),
      listModels: () => () => Promise.resolve(E.right([{ id: "m", outputCostPerMTok: 1 }])),
    };
    const store = memoryStore();
    const { compactor } = compactorFor(store, hanging, { maxTokens: 1, threshold: 1, timeoutMs: 20, fallback: "none" });
    await right(store.append("s", chat(10), 1));
    expect(await left(compactor.tryCompact({ stackId: "s", lastInputTokens: 5 }))).toEqual({
      _tag: "SummariserFailed",
      error: { _tag: "ProviderTimeout", timeoutMs: 20 },
    });
    expect(O.isNone(await right(store.latestSummary("s")))).toBe(true);
  });
});

describe("abort", () => {
  it("aborting mid-compaction yields a typed failure and saves nothing", async () => {
    const slow: Provider = {
      name: "slow",
      complete: (request) => () =>
        new Promise((resolve) => {
          request.signal?.addEventListener("abort", () => resolve(E.left({ _tag: "ProviderAborted" })), { once: true });
        }),
      listModels: () => () => Promise.resolve(E.right([{ id: "m", outputCostPerMTok: 1 }])),
    };
    const store = memoryStore();
    const { compactor, seen } = compactorFor(store, slow, { maxTokens: 1, threshold: 1 });
    await right(store.append("s", chat(10), 1));
    const controller = new AbortController();
    const running = compactor.tryCompact({ stackId: "s", lastInputTokens: 5, signal: controller.signal })();
    setImmediate(() => controller.abort());
    const result = await running;
    expect(result).toEqual(E.left({ _tag: "SummariserFailed", error: { _tag: "ProviderAborted" } }));
    expect(seen.map((e) => e._tag)).toEqual(["CompactionFailed"]);
    expect(O.isNone(await right(store.latestSummary("s")))).toBe(true);
  });
});

describe("SQLite: the store fails mid-save, then the process restarts", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "cc-lcm-faults-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps everything, duplicates nothing, and compacts correctly on the next turns", async () => {
    const path = join(dir, "agent.db");
    const store = await right(openSqliteStore({ path }));
    const { compactor, seen } = compactorFor(
      store,
      scriptedProvider([{ text: "S1" }, { text: "S1 again" }, { text: "S2" }]),
    );
    await right(store.append("s", chat(10), 1));
    const raw = new Database(path);
    raw.exec("CREATE TRIGGER cc_fault BEFORE INSERT ON cc_chat_summaries BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    expect(await left(compactor.tryCompact({ stackId: "s", lastInputTokens: 500 }))).toMatchObject({
      _tag: "StoreUnavailable",
      message: expect.stringContaining("disk full"),
    });
    expect(seen.at(-1)).toMatchObject({ _tag: "CompactionFailed" });
    expect((await snapshot(store, "s")).latest).toBeUndefined();
    raw.exec("DROP TRIGGER cc_fault");
    raw.close();

    const first = await right(compactor.tryCompact({ stackId: "s", lastInputTokens: 500 }));
    expect(first).toMatchObject({
      _tag: "Compacted",
      summary: { coversUpTo: 6, content: "S1 again", previousId: null },
    });
    const beforeRestart = await snapshot(store, "s");
    await right(store.close());

    // The process restarts: a new handle on the same file, a new compactor, the first turn has
    // no reported usage (0) — the estimate drives the trigger.
    const reopened = await right(openSqliteStore({ path }));
    expect(await snapshot(reopened, "s")).toEqual(beforeRestart);
    await right(reopened.append("s", chat(4, 11), 2));
    const after = compactorFor(reopened, scriptedProvider([{ text: "S2" }]), {
      maxTokens: 10,
      threshold: 1,
      preserveLast: 4,
    });
    const second = await right(after.compactor.tryCompact({ stackId: "s", lastInputTokens: 0 }));
    expect(second).toMatchObject({
      _tag: "Compacted",
      tokenSource: "estimated",
      summary: { coversUpTo: 10, content: "S2" },
    });
    expect(second._tag === "Compacted" && first._tag === "Compacted" && second.summary.previousId).toBe(
      first._tag === "Compacted" ? first.summary.id : -1,
    );
    const messages = (await right(reopened.messagesAfter("s", 0))).map((m) => m.id);
    expect(messages).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    await right(reopened.close());
  });
});

describe("PostgreSQL: mid-save failure, restart with a new pool, two processes compacting at once", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it("recovers from a failed save and continues the chain from a new pool", async () => {
    const store = await right(openPostgresStore({ connection: db.url }));
    const { compactor } = compactorFor(store, scriptedProvider([{ text: "P1" }]));
    await right(store.append("p", chat(10), 1));
    const admin = guardedClient(db.url);
    await admin.connect();
    await admin.query(
      `CREATE FUNCTION cc_fault() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql`,
    );
    await admin.query(
      "CREATE TRIGGER cc_fault BEFORE INSERT ON cc_chat_summaries FOR EACH ROW EXECUTE FUNCTION cc_fault()",
    );
    expect(await left(compactor.tryCompact({ stackId: "p", lastInputTokens: 500 }))).toMatchObject({
      _tag: "StoreUnavailable",
    });
    await admin.query("DROP TRIGGER cc_fault ON cc_chat_summaries");
    await admin.end();
    const first = await right(compactor.tryCompact({ stackId: "p", lastInputTokens: 500 }));
    expect(first).toMatchObject({ _tag: "Compacted", summary: { coversUpTo: 6 } });
    await right(store.close());

    const restarted = await right(openPostgresStore({ connection: db.url }));
    await right(restarted.append("p", chat(4, 11), 2));
    const next = compactorFor(restarted, scriptedProvider([{ text: "P2" }]));
    const second = await right(next.compactor.tryCompact({ stackId: "p", lastInputTokens: 500 }));
    expect(second).toMatchObject({ _tag: "Compacted", summary: { coversUpTo: 10, content: "P2" } });
    expect((await right(restarted.messagesAfter("p", 0))).map((m) => m.id)).toEqual(
      Array.from({ length: 14 }, (_, i) => i + 1),
    );
    await right(restarted.close());
  });

  it("two hosts compacting one stack at once: one summary is saved, the other is discarded", async () => {
    const hostA = await right(openPostgresStore({ connection: db.url }));
    const hostB = await right(openPostgresStore({ connection: db.url }));
    await right(hostA.append("race", chat(12), 1));
    // Both summarisers answer only once both have been asked: both hosts read the same state.
    let arrived = 0;
    let release: () => void = () => undefined;
    const barrier = new Promise<void>((r) => (release = r));
    const gated = (text: string): Provider => {
      const inner = scriptedProvider([{ text }]);
      return {
        ...inner,
        complete: (request) => async () => {
          if (++arrived === 2) release();
          await barrier;
          return inner.complete(request)();
        },
      };
    };
    const a = compactorFor(hostA, gated("from A"));
    const b = compactorFor(hostB, gated("from B"));
    const outcomes = await Promise.all([
      right(a.compactor.tryCompact({ stackId: "race", lastInputTokens: 500 })),
      right(b.compactor.tryCompact({ stackId: "race", lastInputTokens: 500 })),
    ]);
    expect(outcomes.map((o) => o._tag).sort()).toEqual(["Compacted", "Skipped"]);
    expect(outcomes.find((o) => o._tag === "Skipped")).toMatchObject({ reason: "ConcurrentCompaction" });
    const latest = O.toUndefined(await right(hostB.latestSummary("race")));
    expect(latest).toMatchObject({ previousId: null, coversUpTo: 8 });
    await Promise.all([hostA.close()(), hostB.close()()]);
  });
});
