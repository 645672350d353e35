// The whole PostgreSQL server stops (`pg_ctl -m immediate`) under an open segment index and an
// open summary store, then comes back: the process survives, calls while it is down are typed
// errors, calls after the restart work, and nothing acknowledged is lost.
import * as E from "fp-ts/lib/Either.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore, type StoreError, type SummaryStore } from "@cc/session";
import { entry, openPostgresIndex, type IndexEntry, type IndexError, type SegmentIndex } from "@cc/search";
import { right } from "../../search/test/support/contract.js";
import { startCluster, type Cluster } from "../../search/test/support/cluster.js";
import { sleep } from "../../search/test/support/pg-faults.js";

let cluster: Cluster;
beforeAll(() => {
  cluster = startCluster();
});
afterAll(() => {
  cluster?.destroy();
});

const INDEX_FAULTS = ["ConnectionLost", "StorageError", "Timeout"];
const STORE_FAULTS = ["StoreConnectionLost", "StoreUnavailable", "StoreTimeout"];

/** The first Right of up to `tries` calls; every Left before it must be a typed fault. */
async function recovers<L extends { readonly _tag: string }, A>(
  call: () => Promise<E.Either<L, A>>,
  faults: readonly string[],
  tries = 3,
): Promise<A> {
  let last: E.Either<L, A> | undefined;
  for (let i = 0; i < tries; i++) {
    last = await call();
    if (E.isRight(last)) return last.right;
    expect(faults).toContain(last.left._tag);
    await sleep(100);
  }
  throw new Error(`no recovery after ${tries} calls: ${JSON.stringify(last)}`);
}

describe("the server stops and restarts", () => {
  it("index and store: typed errors while it is down, recovery after, nothing acknowledged lost", async () => {
    const index: SegmentIndex = right(await openPostgresIndex({ connection: cluster.url, connectTimeoutMs: 2000 })());
    const store: SummaryStore = right(await openPostgresStore({ connection: cluster.url, connectTimeoutMs: 2000 })());
    const acknowledged: IndexEntry[] = Array.from({ length: 20 }, (_, i) =>
      entry({ id: `before-${i}`, summary: `written before the stop ${i}` }),
    );
    right(await index.write(acknowledged)());
    const appended = right(await store.append("s", [{ role: "user", content: "before the stop" }], 1)());
    // Several pooled connections are idle when the server goes.
    await Promise.all([
      index.count()(),
      index.search("stop")(),
      store.lastMessageId("s")(),
      store.messagesAfter("s", 0)(),
    ]);

    cluster.stopImmediate();
    await sleep(200);
    const down: E.Either<IndexError, unknown>[] = [
      await index.count()(),
      await index.write([entry({ id: "while-down" })])(),
      await index.search("stop")(),
    ];
    for (const r of down) expect(E.isLeft(r) && INDEX_FAULTS.includes(r.left._tag)).toBe(true);
    const storeDown: E.Either<StoreError, unknown>[] = [
      await store.append("s", [{ role: "user", content: "while down" }], 2)(),
      await store.lastMessageId("s")(),
    ];
    for (const r of storeDown) expect(E.isLeft(r) && STORE_FAULTS.includes(r.left._tag)).toBe(true);

    cluster.restart();
    expect(await recovers(() => index.count()(), INDEX_FAULTS)).toBe(acknowledged.length);
    const after = entry({ id: "after", summary: "written after the restart" });
    right(await index.write([after])());
    for (const e of [...acknowledged, after]) expect(right(await index.expand(e.id)())).toEqual(e);
    expect(await recovers(() => store.lastMessageId("s")(), STORE_FAULTS)).toBe(appended[0]!.id);
    right(await store.append("s", [{ role: "user", content: "after the restart" }], 3)());
    expect(right(await store.messagesAfter("s", 0)()).map((m) => m.message.content)).toEqual([
      "before the stop",
      "after the restart",
    ]);
    right(await index.close()());
    right(await store.close()());
  });
});
