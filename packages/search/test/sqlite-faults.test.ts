// SQLite faults: a writer process killed with SIGKILL in the middle of a batch (every acknowledged
// batch is complete on reopen, no batch is partial), and a full disk (the write is a typed error,
// the process lives, earlier data is intact, and the next write after space is freed works).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, describe, expect, it } from "vitest";
import { entry, type IndexEntry } from "../src/contract.js";
import { openSqliteIndex } from "../src/sqlite.js";
import { right } from "./support/contract.js";
import { writeUntilKilled } from "../../../.ci/support/crash.js";
import { tinyFs } from "../../../.ci/support/tiny-fs.js";

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "cc-sqlite-faults-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SQLite index: a writer killed mid-batch", () => {
  it("every acknowledged batch is complete after reopening, and no batch is partial", async () => {
    const path = join(dir, "crash.db");
    const size = 200;
    const acknowledged: number[] = [];
    let next = 0;
    for (let run = 0; run < 3; run++) {
      const acks = await writeUntilKilled(
        join(here, "./support/sqlite-crash-writer.ts"),
        [path, String(next), String(size)],
        3,
      );
      expect(acks.length).toBeGreaterThanOrEqual(3);
      acknowledged.push(...acks);
      // The batch after the last acknowledged one may or may not have committed; start past it.
      next = Math.max(...acks) + 2;
      const index = right(await openSqliteIndex({ path })());
      for (let n = 0; n < next; n++) {
        const count = right(await index.count(`b${n}`)());
        if (acknowledged.includes(n)) expect(count, `acknowledged batch ${n}`).toBe(size);
        else expect([0, size], `batch ${n} is all or nothing`).toContain(count);
      }
      const last = Math.max(...acks);
      expect(right(await index.expand(`e${size - 1}`, `b${last}`)())?.summary).toBe(`batch ${last} entry ${size - 1}`);
      right(await index.close()());
    }
  });
});

describe("SQLite index: a full disk", () => {
  it("the write is a typed StorageError, earlier data is intact, and writing works again once space is freed", async () => {
    const fs = tinyFs(512, 320);
    try {
      const index = right(await openSqliteIndex({ path: join(fs.dir, "full.db") })());
      const acknowledged: IndexEntry[] = [];
      const filler = "x".repeat(4000);
      let failure: E.Either<unknown, unknown> | undefined;
      for (let n = 0; n < 200 && failure === undefined; n++) {
        const batch = Array.from({ length: 5 }, (_, i) =>
          entry({ id: `n${n}-${i}`, summary: `full disk batch ${n}`, content: `${filler} ${n} ${i}` }),
        );
        const r = await index.write(batch)();
        if (E.isLeft(r)) failure = r;
        else acknowledged.push(...batch);
      }
      expect(failure !== undefined && E.isLeft(failure) && failure.left).toMatchObject({
        _tag: "StorageError",
        backend: "sqlite",
        operation: "write",
        code: "SQLITE_FULL",
      });
      expect(acknowledged.length).toBeGreaterThan(0);
      expect(right(await index.count()())).toBe(acknowledged.length);
      for (const e of acknowledged) expect(right(await index.expand(e.id)())).toEqual(e);
      fs.free();
      const after = entry({ id: "after", summary: "written once space was freed", content: filler });
      right(await index.write([after])());
      expect(right(await index.expand("after")())).toEqual(after);
      expect(right(await index.count()())).toBe(acknowledged.length + 1);
      right(await index.close()());
    } finally {
      fs.dispose();
    }
  });
});
