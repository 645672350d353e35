// Property: the agreement on one slot never decides two values, whatever the interleaving of the
// writers and whatever their writes do — fail before landing, land and then fail, or land late,
// after the writer gave up — including when a writer takes back a value it gave up on and
// proposes another one (what its next append does).
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import type { StoreError } from "@cc/session";
import { describe, expect, it } from "vitest";
import type { Io, Read } from "../src/store/backend.js";
import { decide, type Proposer } from "../src/store/consensus.js";
import type { Value } from "../src/store/records.js";
import { runsFor } from "../../../.ci/support/runs.js";

const runs = (local: number): number => runsFor(local, Math.max(1000, local));

type Fate = "ok" | "lost" | "landed" | "late";
const fateArb: fc.Arbitrary<Fate> = fc.constantFrom<Fate>("ok", "ok", "ok", "lost", "landed", "late");

const failure = (why: string): StoreError => ({ _tag: "StoreUnavailable", backend: "langgraph", message: why });

/** One shared table of records; each writer's calls go through the scheduler and meet the fate `plan` gives them. */
function sharedIo(table: Map<string, Value>, s: fc.Scheduler, plan: readonly Fate[], late: Promise<unknown>[]): Io {
  let calls = 0;
  const fate = (): Fate => plan[calls++ % plan.length]!;
  const ns = (n: readonly string[]): string => n.join(".");
  return {
    owner: {},
    get: async (ops) => {
      await s.schedule(Promise.resolve(), "get");
      return E.right(ops.map((op): Read => table.get(`${ns(op.namespace)}|${op.key}`) ?? null));
    },
    put: async (ops) => {
      await s.schedule(Promise.resolve(), "put");
      const f = fate();
      const write = (): void => {
        for (const op of ops) table.set(`${ns(op.namespace)}|${op.key}`, structuredClone(op.value));
      };
      if (f === "ok") write();
      if (f === "landed") write();
      if (f === "late") late.push(s.schedule(Promise.resolve(), "late write").then(write));
      return f === "ok" ? E.right(undefined) : E.left(failure(`put ${f}`));
    },
    searchAll: async (namespace) => {
      await s.schedule(Promise.resolve(), "search");
      const f = fate();
      if (f === "lost") return E.left(failure("search lost"));
      const prefix = `${ns(namespace)}|`;
      const found = [...table.entries()].filter(([k]) => k.startsWith(prefix)).map(([, v]) => v);
      return f === "ok" ? E.right(found) : E.left(failure(`search ${f}`));
    },
  };
}

describe("agreement on one slot among writers sharing a store", () => {
  it("property: no two writers ever see different values decided, whatever their writes do", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(
          fc.record({
            attempts: fc.integer({ min: 1, max: 3 }),
            plan: fc.array(fateArb, { minLength: 1, maxLength: 12 }),
          }),
          { minLength: 2, maxLength: 4 },
        ),
        async (s, writers) => {
          const table = new Map<string, Value>();
          const late: Promise<unknown>[] = [];
          const decided: Value[] = [];
          const namespace = ["cc", "s", "log", "1"];
          const runWriter = async (w: { attempts: number; plan: readonly Fate[] }, i: number): Promise<void> => {
            const io = sharedIo(table, s, w.plan, late);
            const proposer: Proposer = { writer: `writer${i}`, slots: new Map() };
            // Each attempt proposes a value of its own, as the writer's next append does after a failure.
            for (let k = 0; k < w.attempts; k++) {
              const r = await decide(io, proposer, namespace, { by: i, attempt: k }, [], (why) => failure(why));
              if (E.isRight(r)) {
                decided.push(r.right);
                return;
              }
            }
          };
          await s.waitFor(Promise.all(writers.map(runWriter)));
          await s.waitFor(Promise.all(late));
          for (const v of decided) expect(v).toEqual(decided[0]);
          // A writer that comes last, with every write working, decides that same value (or, if none was, any).
          const last = await s.waitFor(
            decide(
              sharedIo(table, s, ["ok"], late),
              { writer: "writerZ", slots: new Map() },
              namespace,
              { by: "last" },
              [],
              (why) => failure(why),
            ),
          );
          expect(E.isRight(last)).toBe(true);
          if (E.isRight(last) && decided.length > 0) expect(last.right).toEqual(decided[0]);
        },
      ),
      { numRuns: runs(200) },
    );
  });
});
