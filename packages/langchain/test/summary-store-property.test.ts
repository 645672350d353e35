// Property: concurrent writers in one process, over a real InMemoryStore whose every batch call
// is delayed by fast-check's scheduler (random interleavings) and sometimes fails, never lose or
// reorder an acknowledged message, never show a failed append (unless its error says it was
// decided and is kept: then it shows whole), and keep the summary chain linear (each saved summary
// supersedes the one before it, no two supersede the same one).
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import { InMemoryStore } from "@langchain/langgraph";
import type { Message } from "@cc/messages";
import type { StoredMessage, StoredSummary, StoreError, SummaryStore } from "@cc/session";
import { describe, expect, it } from "vitest";
import { baseStoreSummaryStore, type LangGraphStore } from "../src/index.js";
import { runsFor } from "../../../.ci/support/runs.js";

const runs = (local: number): number => runsFor(local, Math.max(1000, local));

type Op =
  | { readonly kind: "append"; readonly stack: number; readonly texts: readonly string[] }
  | { readonly kind: "save"; readonly stack: number; readonly advance: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("append" as const),
    stack: fc.nat(1),
    texts: fc.array(fc.string({ unit: "binary", maxLength: 6 }), { maxLength: 3 }),
  }),
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
  /** The error said the append was decided and is kept. */
  readonly kept: boolean;
}

const KEPT = "was decided and is kept";
const isKept = (e: StoreError): boolean => e._tag === "StoreUnavailable" && e.message.includes(KEPT);

/** A BaseStore whose batch calls are released by the scheduler; call `n` fails when `plan` says so (before it reaches the store). Quiet: neither. */
function scheduled(
  inner: InMemoryStore,
  s: fc.Scheduler,
  plan: readonly number[],
): LangGraphStore & { quiet: boolean } {
  let calls = 0;
  const store = {
    quiet: false,
    batch: async (ops: Parameters<NonNullable<LangGraphStore["batch"]>>[0]): Promise<readonly unknown[]> => {
      if (store.quiet) return inner.batch(ops);
      const n = calls++;
      await s.schedule(Promise.resolve(), `batch ${n}`);
      if (plan[n % plan.length] === 0) throw new Error(`injected failure of call ${n}`);
      const results = await inner.batch(ops);
      return s.schedule(Promise.resolve(results), `answer ${n}`);
    },
  };
  return store;
}

/** Runs one actor's ops in order, recording what was acknowledged and what failed. */
async function actor(
  store: SummaryStore,
  id: number,
  ops: readonly Op[],
  acked: Acked[][],
  failed: Failed[][],
  saved: StoredSummary[][],
  kept: string[][],
  unsure: string[][],
  refusals: StoreError[],
): Promise<void> {
  for (const [k, op] of ops.entries()) {
    const stackId = STACKS[op.stack]!;
    if (op.kind === "append") {
      // The tag makes every message unique, so where it ends up (or not) is unambiguous.
      const sent = op.texts.map((text, i): Message => ({ role: "user", content: `${id}.${k}.${i}|${text}` }));
      const r = await store.append(stackId, sent, id * 1000 + k)();
      if (E.isRight(r)) acked[op.stack]!.push({ actor: id, sent, stored: r.right });
      else {
        expect(r.left._tag).toBe("StoreUnavailable");
        failed[op.stack]!.push({ sent, kept: isKept(r.left) });
      }
      continue;
    }
    const latest = await store.latestSummary(stackId)();
    const last = await store.lastMessageId(stackId)();
    if (E.isLeft(latest) || E.isLeft(last)) continue;
    const previous = O.toUndefined(latest.right);
    const coversUpTo = Math.min(last.right, (previous?.coversUpTo ?? 0) + op.advance);
    const content = `summary by ${id}.${k} 🧠`;
    const r = await store.saveSummary(
      stackId,
      { content, coversUpTo: Math.max(1, coversUpTo), previousId: previous?.id ?? null },
      1,
    )();
    if (E.isRight(r)) saved[op.stack]!.push(r.right);
    else if (isKept(r.left)) kept[op.stack]!.push(content);
    else {
      refusals.push(r.left);
      if (r.left._tag === "StoreUnavailable") unsure[op.stack]!.push(content);
    }
  }
}

/**
 * The property, with one summary store for every actor (`separate` false: one process) or one
 * summary store over a handle of its own per actor (`separate` true: as many processes sharing
 * the backend — no in-process queue between them, so they contend).
 */
const property = (separate: boolean) => async (): Promise<void> => {
  await fc.assert(
    fc.asyncProperty(
      fc.scheduler(),
      fc.array(fc.array(opArb, { minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 4 }),
      fc.array(fc.nat(7), { minLength: 8, maxLength: 32 }),
      fc.integer({ min: 1, max: 3 }),
      async (s, actors, plan, batchSize) => {
        const raw = new InMemoryStore();
        const backings = actors.map((_, i) => (i === 0 || separate ? scheduled(raw, s, plan) : undefined));
        const stores = backings.map((b) => (b === undefined ? undefined : baseStoreSummaryStore(b, { batchSize })));
        const storeOf = (i: number): SummaryStore => {
          const made = stores[separate ? i : 0];
          if (made === undefined || E.isLeft(made)) return expect.fail("no store");
          return made.right;
        };
        const acked: Acked[][] = [[], []];
        const failed: Failed[][] = [[], []];
        const saved: StoredSummary[][] = [[], []];
        const kept: string[][] = [[], []];
        const unsure: string[][] = [[], []];
        const refusals: StoreError[] = [];
        const done = Promise.all(
          actors.map((ops, i) => actor(storeOf(i), i, ops, acked, failed, saved, kept, unsure, refusals)),
        );
        await s.waitFor(done);
        // One more call per stack and store, without faults, records what was decided and kept.
        for (const b of backings) if (b !== undefined) b.quiet = true;
        for (const [i, b] of backings.entries())
          if (b !== undefined)
            for (const stackId of STACKS) expect(E.isRight(await storeOf(i).lastMessageId(stackId)())).toBe(true);

        for (const r of refusals) expect(["SummaryConflict", "InvalidWatermark", "StoreUnavailable"]).toContain(r._tag);
        // Read back without the scheduler or faults.
        const reader = baseStoreSummaryStore(raw, { batchSize });
        if (E.isLeft(reader)) return expect.fail(reader.left.message);
        for (const [i, stackId] of STACKS.entries()) {
          const all = await reader.right.messagesAfter(stackId, 0)();
          if (E.isLeft(all)) return expect.fail(all.left._tag);
          const stored = all.right;
          expect(stored.map((m) => m.id)).toEqual(stored.map((_, k) => k + 1));
          const contents = new Set(stored.map((m) => m.message.content));
          // One store: a failed append shows only if its error said it was kept. Separate stores:
          // another one may also have completed it (it read the ballot before its writer took it back).
          const keptAppends = failed[i]!.filter(
            (f) => f.sent.length > 0 && (f.kept || (separate && contents.has(f.sent[0]!.content))),
          );
          expect(stored.length).toBe(
            acked[i]!.reduce((n, a) => n + a.sent.length, 0) + keptAppends.reduce((n, f) => n + f.sent.length, 0),
          );
          for (const a of acked[i]!) {
            expect(a.stored.map((m) => m.message)).toEqual(a.sent);
            for (const m of a.stored) expect(stored[m.id - 1]).toEqual(m);
            for (const [k, m] of a.stored.entries()) expect(m.id).toBe(a.stored[0]!.id + k);
          }
          // A kept append shows whole, its messages one after the other.
          for (const f of keptAppends) {
            const at = stored.findIndex((m) => m.message.content === f.sent[0]!.content);
            expect(stored.slice(at, at + f.sent.length).map((m) => m.message)).toEqual(f.sent);
          }
          // One actor's acknowledged appends keep its order.
          for (let who = 0; who < actors.length; who++) {
            const firsts = acked[i]!.filter((a) => a.actor === who && a.stored.length > 0).map((a) => a.stored[0]!.id);
            expect(firsts).toEqual([...firsts].sort((x, y) => x - y));
          }
          for (const f of failed[i]!)
            if (!keptAppends.includes(f)) for (const m of f.sent) expect(contents.has(m.content)).toBe(false);
          // The chain: ids 1..k, each superseding the one before, watermarks moving forward; a
          // summary whose save said it was kept takes one of the ids (and, with separate stores,
          // one whose save failed may have been completed by another store).
          const chain = [...saved[i]!].sort((x, y) => x.id - y.id);
          const least = chain.length + kept[i]!.length;
          const most = least + (separate ? unsure[i]!.length : 0);
          expect(new Set(chain.map((c) => c.id)).size).toBe(chain.length);
          chain.forEach((summary, k) => {
            expect(summary.previousId).toBe(summary.id === 1 ? null : summary.id - 1);
            if (k > 0 && chain[k - 1]!.id === summary.id - 1)
              expect(summary.coversUpTo).toBeGreaterThan(chain[k - 1]!.coversUpTo);
            expect(summary.coversUpTo).toBeLessThanOrEqual(stored.length);
          });
          const latest = O.toUndefined(
            E.getOrElseW(() => expect.fail("latestSummary failed"))(await reader.right.latestSummary(stackId)()),
          );
          if (latest === undefined) expect(least).toBe(0);
          else {
            expect(latest.id).toBeGreaterThanOrEqual(least);
            expect(latest.id).toBeLessThanOrEqual(most);
            for (const c of chain) expect(c.id).toBeLessThanOrEqual(latest.id);
            const mine = chain.find((c) => c.id === latest.id);
            if (mine !== undefined) expect(latest).toEqual(mine);
            else expect([...kept[i]!, ...(separate ? unsure[i]! : [])]).toContain(latest.content);
          }
        }
      },
    ),
    // Separate stores contend and back off (real timers): fewer runs.
    { numRuns: separate ? runsFor(40, 150) : runs(150) },
  );
};

describe("baseStoreSummaryStore under random interleavings", () => {
  it(
    "property, one process: acknowledged messages are never lost or reordered, a failed append never shows unless it was kept (then whole), the summary chain stays linear",
    property(false),
  );
  it(
    "property, a store per writer over one backend (as processes): acknowledged messages are never lost or reordered, a failed append shows whole or not at all, the summary chain stays linear",
    property(true),
  );
});
