import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openSqliteStore } from "@cc/session";
import { SQLITE_MIGRATIONS } from "@cc/test-support/session";
import { left, right } from "../support.js";
import { storeContract } from "./contract.js";

const tempDir = (): string => mkdtempSync(join(tmpdir(), "cc-lcm-sqlite-"));

storeContract("sqlite", async () => {
  const dir = tempDir();
  const store = await right(openSqliteStore({ path: join(dir, "session.db") }));
  return {
    store,
    cleanup: async () => {
      await store.close()();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe("SQLite store specifics", () => {
  it("migrates on open: user_version is the number of migrations, WAL is on, reopening keeps data", async () => {
    const dir = tempDir();
    const path = join(dir, "s.db");
    try {
      const store = await right(openSqliteStore({ path }));
      await right(store.append("s", [{ role: "user", content: "kept" }], 1));
      await right(store.saveSummary("s", { content: "sum", coversUpTo: 1, previousId: null }, 2));
      await right(store.close());
      const raw = new Database(path);
      expect(raw.pragma("user_version", { simple: true })).toBe(SQLITE_MIGRATIONS.length);
      expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
      raw.close();
      const reopened = await right(openSqliteStore({ path }));
      expect((await right(reopened.messagesAfter("s", 0))).map((m) => m.message.content)).toEqual(["kept"]);
      expect((await right(reopened.append("s", [{ role: "user", content: "next" }], 3))).map((m) => m.id)).toEqual([2]);
      await right(reopened.close());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a database written by a newer schema version", async () => {
    const dir = tempDir();
    const path = join(dir, "new.db");
    try {
      const raw = new Database(path);
      raw.pragma(`user_version = ${SQLITE_MIGRATIONS.length + 1}`);
      raw.close();
      const error = await left(openSqliteStore({ path }));
      expect(error).toMatchObject({ _tag: "StoreUnavailable", backend: "sqlite" });
      expect(error._tag === "StoreUnavailable" && error.message).toContain("newer");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a failure in the middle of an append rolls the whole batch back, the counter included", async () => {
    const dir = tempDir();
    const path = join(dir, "fault.db");
    try {
      const store = await right(openSqliteStore({ path }));
      await right(store.append("s", [{ role: "user", content: "before" }], 1));
      const raw = new Database(path);
      raw.exec(`CREATE TRIGGER fail_third BEFORE INSERT ON cc_chat_history WHEN NEW.body LIKE '%boom%'
                BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`);
      raw.close();
      const batch = ["a", "b", "boom", "c"].map((content) => ({ role: "user" as const, content }));
      expect(await left(store.append("s", batch, 2))).toMatchObject({
        _tag: "StoreUnavailable",
        message: expect.stringContaining("disk on fire"),
      });
      expect((await right(store.messagesAfter("s", 0))).map((m) => m.message.content)).toEqual(["before"]);
      expect(await right(store.lastMessageId("s"))).toBe(1);
      expect((await right(store.append("s", [{ role: "user", content: "after" }], 3))).map((m) => m.id)).toEqual([2]);
      await right(store.close());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a corrupt row is reported with its id, not thrown", async () => {
    const dir = tempDir();
    const path = join(dir, "corrupt.db");
    try {
      const store = await right(openSqliteStore({ path }));
      await right(
        store.append(
          "s",
          [
            { role: "user", content: "fine" },
            { role: "user", content: "soon bad" },
          ],
          1,
        ),
      );
      const raw = new Database(path);
      raw.prepare("UPDATE cc_chat_history SET body = '{not json' WHERE id = 2").run();
      raw.close();
      expect(await left(store.messagesAfter("s", 0))).toMatchObject({
        _tag: "StoreCorruptRow",
        backend: "sqlite",
        stackId: "s",
        id: 2,
      });
      expect((await right(store.messagesAfter("s", 2))).length).toBe(0);
      await right(store.close());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a row that is valid JSON but not a message is refused with its id and the field at fault", async () => {
    const dir = tempDir();
    const path = join(dir, "shape.db");
    try {
      const store = await right(openSqliteStore({ path }));
      await right(
        store.append(
          "s",
          [
            { role: "user", content: "fine" },
            { role: "tool", toolCallId: "c", content: "soon bad" },
            { role: "user", content: "tail" },
          ],
          1,
        ),
      );
      const raw = new Database(path);
      const set = raw.prepare<[string]>("UPDATE cc_chat_history SET body = ? WHERE id = 2");
      const cases: readonly (readonly [string, RegExp])[] = [
        ['{"role":"tool","content":"x"}', /toolCallId/],
        ['{"role":"user","content":"x","timestamp":1e999}', /timestamp/],
        ['{"role":"assistant","content":"","toolCalls":[{"id":"c","name":"bash","arguments":7}]}', /toolCalls\[0\]/],
        ['"just a string"', /message/],
      ];
      for (const [body, reason] of cases) {
        set.run(body);
        expect(await left(store.messagesAfter("s", 0))).toMatchObject({
          _tag: "StoreCorruptRow",
          backend: "sqlite",
          stackId: "s",
          id: 2,
          message: expect.stringMatching(reason),
        });
        expect((await right(store.messagesAfter("s", 2))).map((m) => m.message.content)).toEqual(["tail"]);
      }
      raw.close();
      await right(store.close());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("mmapSizeBytes: 0 turns mapping off, reads agree at every size", async () => {
    const dir = tempDir();
    const path = join(dir, "mmap.db");
    try {
      const messages = Array.from({ length: 50 }, (_, i) => ({
        role: "user" as const,
        content: `message ${i} 中文 🙂 ${"x".repeat(i * 100)}`,
      }));
      const writer = await right(openSqliteStore({ path, mmapSizeBytes: 0 }));
      await right(writer.append("s", messages, 1));
      await right(writer.close());
      for (const mmapSizeBytes of [0, 4096, 256 * 1024 * 1024]) {
        const store = await right(openSqliteStore({ path, mmapSizeBytes }));
        expect((await right(store.messagesAfter("s", 0))).map((m) => m.message)).toEqual(messages);
        await right(store.close());
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("decodes its options: a typo'd key, NaN, ±Infinity, a negative or fractional value is InvalidOptions naming the field, and no file is opened", async () => {
    const dir = tempDir();
    try {
      const path = join(dir, "typo.db");
      const cases: readonly (readonly [unknown, string, RegExp])[] = [
        [{ paht: path }, "paht", /^paht: unknown field \(did you mean path\?\)$/],
        [{ paht: path }, "path", /^path: expected a non-empty file path or ":memory:", got undefined$/],
        [{ path, busyTimeout: 5 }, "busyTimeout", /^busyTimeout: unknown field \(did you mean busyTimeoutMs\?\)$/],
        [{ path: "" }, "path", /^path: expected a non-empty file path or ":memory:", got ""$/],
        [{ path: 7 }, "path", /^path: expected a non-empty file path/],
        [
          { path, busyTimeoutMs: -1 },
          "busyTimeoutMs",
          /^busyTimeoutMs: expected an integer in \[0, 2147483647\], got -1$/,
        ],
        [{ path, busyTimeoutMs: Number.NaN }, "busyTimeoutMs", /got NaN$/],
        [{ path, busyTimeoutMs: Number.POSITIVE_INFINITY }, "busyTimeoutMs", /got Infinity$/],
        [
          { path, mmapSizeBytes: Number.NaN },
          "mmapSizeBytes",
          /^mmapSizeBytes: expected a non-negative integer, got NaN$/,
        ],
        [{ path, mmapSizeBytes: Number.NEGATIVE_INFINITY }, "mmapSizeBytes", /got -Infinity$/],
        [{ path, mmapSizeBytes: -1 }, "mmapSizeBytes", /got -1$/],
        [{ path, mmapSizeBytes: 1.5 }, "mmapSizeBytes", /got 1.5$/],
      ];
      for (const [options, field, message] of cases) {
        const error = await left(openSqliteStore(options as never));
        expect(error).toMatchObject({
          _tag: "InvalidOptions",
          subject: "sqlite store options",
          problems: expect.arrayContaining([
            expect.objectContaining({ path: field, message: expect.stringMatching(message) }),
          ]),
        });
      }
      expect(await left(openSqliteStore(undefined as never))).toMatchObject({
        _tag: "InvalidOptions",
        subject: "sqlite store options",
      });
      expect(existsSync(path)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("an unopenable path is a typed error", async () => {
    expect(await left(openSqliteStore({ path: "/nonexistent-dir/x/y.db" }))).toMatchObject({
      _tag: "StoreUnavailable",
      backend: "sqlite",
    });
  });

  it("several OS processes creating and appending to one file get unique, consecutive ids (WAL + BEGIN IMMEDIATE)", async () => {
    const dir = tempDir();
    const path = join(dir, "shared.db");
    try {
      // No store opened the file yet: the writers race to create and migrate it.
      const writer = fileURLToPath(new URL("./sqlite-writer.ts", import.meta.url));
      const root = fileURLToPath(new URL("../../../../", import.meta.url));
      const run = promisify(execFile);
      const startAt = String(Date.now() + 5000);
      const outputs = await Promise.all(
        ["p1", "p2", "p3"].map((name) =>
          run(process.execPath, ["--conditions=development", "--import", "tsx", writer, path, name, "40", startAt], {
            cwd: root,
          }),
        ),
      );
      const batches = outputs.flatMap((o) => JSON.parse(o.stdout) as number[][]);
      for (const batch of batches) expect(batch[1]).toBe(batch[0]! + 1);
      expect(batches.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 240 }, (_, i) => i + 1));
      const store = await right(openSqliteStore({ path }));
      const stored = await right(store.messagesAfter("shared", 0));
      expect(stored.map((m) => m.id)).toEqual(Array.from({ length: 240 }, (_, i) => i + 1));
      expect(new Set(stored.map((m) => m.message.content)).size).toBe(240);
      await right(store.close());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
