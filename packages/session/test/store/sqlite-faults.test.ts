// SQLite faults of the summary store: a writer process killed with SIGKILL in the middle of a
// batch (every acknowledged batch is complete on reopen, no batch is partial, ids stay
// consecutive), and a full disk (the append is a typed error, the process lives, earlier data is
// intact, and the next append after space is freed works).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteStore, type StoreError } from "@cc/session";
import { right } from "../support.js";
import { writeUntilKilled } from "../../../../.ci/support/crash.js";
import { tinyFs } from "../../../../.ci/support/tiny-fs.js";

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "cc-store-faults-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SQLite store: a writer killed mid-batch", () => {
  it("every acknowledged batch is complete after reopening, no batch is partial, ids stay consecutive", async () => {
    const path = join(dir, "crash.db");
    const size = 100;
    const acknowledged = new Set<number>();
    let next = 0;
    for (let run = 0; run < 3; run++) {
      const acks = await writeUntilKilled(join(here, "sqlite-crash-writer.ts"), [path, String(next), String(size)], 3);
      expect(acks.length).toBeGreaterThanOrEqual(3);
      for (const a of acks) acknowledged.add(a);
      next = Math.max(...acks) + 2;
      const store = await right(openSqliteStore({ path }));
      const stored = await right(store.messagesAfter("crash", 0));
      expect(stored.map((m) => m.id)).toEqual(stored.map((_, i) => i + 1));
      const byBatch = new Map<number, string[]>();
      for (const m of stored) {
        const [, batch, i] = /^b(\d+)-(\d+) /.exec(m.message.content) ?? [];
        byBatch.set(Number(batch), [...(byBatch.get(Number(batch)) ?? []), i ?? ""]);
      }
      for (const [batch, items] of byBatch)
        expect(items, `batch ${batch} is whole and in order`).toEqual(
          Array.from({ length: size }, (_, i) => String(i)),
        );
      for (const a of acknowledged) expect(byBatch.has(a), `acknowledged batch ${a}`).toBe(true);
      expect(await right(store.lastMessageId("crash"))).toBe(stored.length);
      await right(store.close());
    }
  });
});

describe("SQLite store: a full disk", () => {
  it("the append is a typed error, earlier data is intact, and appending works again once space is freed", async () => {
    const fs = tinyFs(512, 320);
    try {
      const store = await right(openSqliteStore({ path: join(fs.dir, "full.db"), mmapSizeBytes: 0 }));
      const filler = "y".repeat(4000);
      const acknowledged: string[] = [];
      let failure: StoreError | undefined;
      for (let n = 0; n < 200 && failure === undefined; n++) {
        const batch = Array.from({ length: 5 }, (_, i) => ({ role: "user" as const, content: `${n}-${i} ${filler}` }));
        const r = await store.append("full", batch, n)();
        if (E.isLeft(r)) failure = r.left;
        else acknowledged.push(...batch.map((m) => m.content));
      }
      expect(failure).toMatchObject({
        _tag: "StoreUnavailable",
        backend: "sqlite",
        message: expect.stringMatching(/full/i),
      });
      expect(acknowledged.length).toBeGreaterThan(0);
      expect((await right(store.messagesAfter("full", 0))).map((m) => m.message.content)).toEqual(acknowledged);
      fs.free();
      await right(store.append("full", [{ role: "user", content: "after space was freed" }], 999));
      const stored = await right(store.messagesAfter("full", 0));
      expect(stored.map((m) => m.message.content)).toEqual([...acknowledged, "after space was freed"]);
      expect(stored.map((m) => m.id)).toEqual(stored.map((_, i) => i + 1));
      await right(store.close());
    } finally {
      fs.dispose();
    }
  });
});
