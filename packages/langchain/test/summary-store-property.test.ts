// Property: concurrent writers in one process, over a real InMemoryStore whose every batch call
// is delayed by fast-check's scheduler (random interleavings) and sometimes fails, never lose or
// reorder an acknowledged message, never show part of a failed append, and keep the summary chain
// linear (each saved summary supersedes the one before it, no two supersede the same one).
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import { InMemoryStore } from "@langchain/langgraph";
import type { Message } from "@cc/messages";
import type { StoredMessage, StoredSummary, StoreError, SummaryStore } from "@cc/session";
import { describe, expect, it } from "vitest";
import { baseStoreSummaryStore, type LangGraphStore } from "../src/index.js";

const runs = (local: number): number => (process.env["CI"] ? Math.max(1000, local) : local);

type Op = { readonly kind: "append"; readonly stack: number; readonly texts: readonly string[] } | { readonly kind: "save"; readonly stack: number; readonly advance: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("append" as const), stack: fc.nat(1), texts: fc.array(fc.string({ unit: "binary", maxLength: 6 }), { maxLength: 3 }) }),
  fc.record({ kind: fc.constant("save" as const), stack: fc.nat(1), advance: fc.integer({ min: 0, max: 3 }) }),
);

const STACKS = ["stack-a", "stack-b"] as const;

interface Acked {
  readonly actor: number;
  readonly sent: readonly Message[];
  readonly stored: readonly StoredMessage[];
}

interface Failed {
  readonly sent: readonly Message[];
}

/** A BaseStore whose batch calls are released by the scheduler; call `n` fails when `plan` says so (before it reaches the store). */
function scheduled(inner: InMemoryStore, s: fc.Scheduler, plan: readonly number[]): LangGraphStore {
  let calls = 0;
  return {
    batch: async (ops) => {
      const n = calls++;
      await s.schedule(Promise.resolve(), `batch ${n}`);
      if (plan[n % plan.length] === 0) throw new Error(`injected failure of call ${n}`);
      const results = await inner.batch(ops);
      return s.schedule(Promise.resolve(results), `answer ${n}`);
    },
  };
}

/** Runs one actor's ops in order, recording what was acknowledged and what failed. */
async function actor(store: SummaryStore, id: number, ops: readonly Op[], acked: Acked[][], failed: Failed[][], saved: StoredSummary[][], refusals: StoreError[]): Promise<void> {
  for (const [k, op] of ops.entries()) {
    const stackId = STACKS[op.stack]!;
    if (op.kind === "append") {
      // The tag makes every message unique, so where it ends up (or not) is unambiguous.
      const sent = op.texts.map((text, i): Message => ({ role: "user", content: `${id}.${k}.${i}|${text}` }));
      const r = await store.append(stackId, sent, id * 1000 + k)();
      if (E.isRight(r)) acked[op.stack]!.push({ actor: id, sent, stored: r.right });
      else {
        expect(r.left._tag).toBe("StoreUnavailable");
        failed[op.stack]!.push({ sent });
      }
      continue;
    }
    const latest = await store.latestSummary(stackId)();
    const last = await store.lastMessageId(stackId)();
    if (E.isLeft(latest) || E.isLeft(last)) continue;
    const previous = O.toUndefined(latest.right);
    const coversUpTo = Math.min(last.right, (previous?.coversUpTo ?? 0) + op.advance);
    const r = await store.saveSummary(stackId, { content: `summary by ${id}.${k} 🧠`, coversUpTo: Math.max(1, coversUpTo), previousId: previous?.id ?? null }, 1)();
    if (E.isRight(r)) saved[op.stack]!.push(r.right);
    else refusals.push(r.left);
  }
}

describe("baseStoreSummaryStore under random interleavings in one process", () => {
  it("property: acknowledged messages are never lost or reordered, failed appends leave nothing, the summary chain stays linear", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.array(opArb, { minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 4 }),
        fc.array(fc.nat(7), { minLength: 8, maxLength: 32 }),
        fc.integer({ min: 1, max: 3 }),
        async (s, actors, plan, batchSize) => {
          const raw = new InMemoryStore();
          const made = baseStoreSummaryStore(scheduled(raw, s, plan), { batchSize });
          if (E.isLeft(made)) return expect.fail(made.left.message);
          const store = made.right;
          const acked: Acked[][] = [[], []];
          const failed: Failed[][] = [[], []];
          const saved: StoredSummary[][] = [[], []];
          const refusals: StoreError[] = [];
          const done = Promise.all(actors.map((ops, i) => actor(store, i, ops, acked, failed, saved, refusals)));
          await s.waitFor(done);

          for (const r of refusals) expect(["SummaryConflict", "InvalidWatermark", "StoreUnavailable"]).toContain(r._tag);
          // Read back without the scheduler or faults.
          const reader = baseStoreSummaryStore(raw, { batchSize });
          if (E.isLeft(reader)) return expect.fail(reader.left.message);
          for (const [i, stackId] of STACKS.entries()) {
            const all = await reader.right.messagesAfter(stackId, 0)();
            if (E.isLeft(all)) return expect.fail(all.left._tag);
            const stored = all.right;
            expect(stored.map((m) => m.id)).toEqual(stored.map((_, k) => k + 1));
            expect(stored.length).toBe(acked[i]!.reduce((n, a) => n + a.sent.length, 0));
            for (const a of acked[i]!) {
              expect(a.stored.map((m) => m.message)).toEqual(a.sent);
              for (const m of a.stored) expect(stored[m.id - 1]).toEqual(m);
              for (const [k, m] of a.stored.entries()) expect(m.id).toBe(a.stored[0]!.id + k);
            }
            // One actor's acknowledged appends keep its order.
            for (let who = 0; who < actors.length; who++) {
              const firsts = acked[i]!.filter((a) => a.actor === who && a.stored.length > 0).map((a) => a.stored[0]!.id);
              expect(firsts).toEqual([...firsts].sort((x, y) => x - y));
            }
            const contents = new Set(stored.map((m) => m.message.content));
            for (const f of failed[i]!) for (const m of f.sent) expect(contents.has(m.content)).toBe(false);
            // The chain: ids 1..k, each superseding the one before, watermarks moving forward.
            const chain = [...saved[i]!].sort((x, y) => x.id - y.id);
            chain.forEach((summary, k) => {
              expect(summary.id).toBe(k + 1);
              expect(summary.previousId).toBe(k === 0 ? null : k);
              if (k > 0) expect(summary.coversUpTo).toBeGreaterThan(chain[k - 1]!.coversUpTo);
              expect(summary.coversUpTo).toBeLessThanOrEqual(stored.length);
            });
            const latest = await reader.right.latestSummary(stackId)();
            expect(latest).toEqual(E.right(chain.length === 0 ? O.none : O.some(chain.at(-1))));
          }
        },
      ),
      { numRuns: runs(150) },
    );
  });
});
