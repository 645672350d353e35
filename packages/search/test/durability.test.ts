import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entry } from "../src/contract.js";
import { openPostgresIndex } from "../src/postgres.js";
import { openSqliteIndex } from "../src/sqlite.js";
import { right } from "./support/contract.js";
import { testDatabase } from "./support/postgres.js";
import type { TestDatabase } from "./support/postgres.js";

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "cc-durable-"));
let db: TestDatabase;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

const batch = (name: string, from: number, n: number) =>
  Array.from({ length: n }, (_, i) =>
    entry({
      id: `${name}-${from + i}`,
      namespace: name,
      summary: `note ${name} ${from + i}`,
      content: `original ${from + i} 数据`,
    }),
  );

function child(path: string, name: string, count: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--conditions=development",
        join(here, "support/sqlite-writer.ts"),
        path,
        name,
        String(count),
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    p.on("error", reject);
    p.on("exit", (code) => resolve(code ?? -1));
  });
}

describe("SQLite durability", () => {
  it("reopening the file finds and expands everything written before close", async () => {
    const path = join(dir, "reopen.db");
    const first = right(await openSqliteIndex({ path })());
    right(await first.write(batch("a", 0, 300))());
    right(await first.write([entry({ id: "a-7", namespace: "a", summary: "replaced", content: "original 7 数据" })])());
    right(await first.close()());
    const again = right(await openSqliteIndex({ path })());
    expect(right(await again.count("a")())).toBe(300);
    expect(right(await again.search("note", { namespace: "a", k: 1000 })())).toHaveLength(299);
    expect(right(await again.expand("a-7", "a")())?.summary).toBe("replaced");
    expect(right(await again.expand("a-299", "a")())?.content).toBe("original 299 数据");
    right(await again.close()());
  });

  it("two connections writing interleaved into one file lose nothing", async () => {
    const path = join(dir, "two-connections.db");
    const x = right(await openSqliteIndex({ path })());
    const y = right(await openSqliteIndex({ path })());
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        Promise.all([x.write(batch("x", i * 4, 4))(), y.write(batch("y", i * 4, 4))()]),
      ),
    );
    expect(right(await x.count()())).toBe(400);
    expect(right(await y.search("original", { k: 1000 })())).toHaveLength(400);
    right(await x.close()());
    right(await y.close()());
  });

  it("two processes writing at once into one file lose nothing", async () => {
    const path = join(dir, "two-processes.db");
    right(await right(await openSqliteIndex({ path })()).close()());
    const codes = await Promise.all([child(path, "p1", 150), child(path, "p2", 150)]);
    expect(codes).toEqual([0, 0]);
    const index = right(await openSqliteIndex({ path })());
    expect(right(await index.count("p1")())).toBe(150);
    expect(right(await index.count("p2")())).toBe(150);
    right(await index.close()());
  });
});

describe("PostgreSQL sharing", () => {
  it("processes racing to create the schema all succeed", async () => {
    const opened = await Promise.all(
      Array.from({ length: 5 }, () => openPostgresIndex({ connection: db.client(), table: "race" })()),
    );
    const indexes = opened.map(right);
    expect(indexes).toHaveLength(5);
    await Promise.all(indexes.map((i) => i.close()()));
  });

  it("two clients writing at once lose nothing, and both see everything", async () => {
    const x = right(await openPostgresIndex({ connection: db.client(), table: "shared" })());
    const y = right(await openPostgresIndex({ connection: db.client(), table: "shared" })());
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        Promise.all([x.write(batch("x", i * 5, 5))(), y.write(batch("y", i * 5, 5))()]),
      ).map(async (p) => (await p).map(right)),
    );
    expect(right(await x.count()())).toBe(400);
    expect(right(await y.search("数据", { k: 1000 })())).toHaveLength(400);
    expect(right(await x.expand("y-199", "y")())?.content).toBe("original 199 数据");
    right(await x.close()());
    right(await y.close()());
  });
});
