import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { IndexError } from "@cc/hierarchical";
import { POSTGRES_DRIVER, SQLITE_DRIVER } from "@cc/search";
import { driverUnavailable, loadDriver } from "@cc/test-support/search";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../../..");

type Loaded = "sqlite" | "pg";
type Outcome = { readonly tag: "Right"; readonly hits: number } | { readonly tag: "Left"; readonly error: IndexError };
interface Probe {
  readonly steps: Readonly<
    Record<"before" | "afterImport" | "afterMemory" | "afterSqlite" | "afterPostgres", readonly Loaded[]>
  >;
  readonly writtenToIndex: number;
  readonly memoryHits: number;
  readonly writtenToOwn: number;
  readonly ownWriterSaw: number;
  readonly sqlite: Outcome;
  readonly postgres: Outcome;
}

/** Runs the probe in a fresh Node process, where nothing is loaded yet. */
async function probe(...flags: readonly string[]): Promise<Probe> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--conditions=development", join(here, "load-probe.ts"), "@cc/hierarchical", ...flags],
    { cwd: root },
  );
  return JSON.parse(stdout) as Probe;
}

describe("database drivers are loaded when an index is opened, not on import", () => {
  it("importing @cc/hierarchical, compacting into the memory index or an own writer, and searching loads no driver; each open loads only its driver", async () => {
    const seen = await probe();
    expect(seen.steps.before).toEqual([]);
    expect(seen.steps.afterImport).toEqual([]);
    expect(seen.steps.afterMemory).toEqual([]);
    expect(seen.writtenToIndex).toBeGreaterThan(0);
    expect(seen.memoryHits).toBe(seen.writtenToIndex);
    expect(seen.writtenToOwn).toBe(seen.writtenToIndex);
    expect(seen.ownWriterSaw).toBe(seen.writtenToOwn);
    // The detector sees real loads: each open pulls in its own driver and nothing else.
    expect(seen.steps.afterSqlite).toEqual(["sqlite"]);
    expect(seen.sqlite).toEqual({ tag: "Right", hits: 1 });
    expect(seen.steps.afterPostgres).toEqual(["sqlite", "pg"]);
    expect(seen.postgres).toMatchObject({
      tag: "Left",
      error: {
        _tag: "ConnectionLost",
        backend: "postgres",
        operation: "open",
        code: "ECONNREFUSED",
        message: expect.stringContaining("ECONNREFUSED"),
      },
    });
  });

  it("without the drivers installed, compaction and the memory index still work and each open is an IndexUnavailable naming the package", async () => {
    const seen = await probe("--hide-drivers");
    expect(seen.writtenToIndex).toBeGreaterThan(0);
    expect(seen.memoryHits).toBe(seen.writtenToIndex);
    expect(seen.writtenToOwn).toBe(seen.writtenToIndex);
    expect(seen.sqlite).toMatchObject({
      tag: "Left",
      error: {
        _tag: "IndexUnavailable",
        backend: "sqlite",
        missingPackage: "better-sqlite3",
        message: expect.stringContaining("npm install better-sqlite3@12.11.1"),
      },
    });
    expect(seen.postgres).toMatchObject({
      tag: "Left",
      error: {
        _tag: "IndexUnavailable",
        backend: "postgres",
        missingPackage: "pg",
        message: expect.stringContaining("npm install pg@8.23.1"),
      },
    });
    expect(seen.steps.afterPostgres).toEqual([]);
  });
});

describe("loadDriver", () => {
  it("turns a failed import into IndexUnavailable with the package, the install command and the cause", async () => {
    const missing = `cc-no-such-driver-${process.pid}`;
    const result = await loadDriver(
      "sqlite",
      SQLITE_DRIVER,
      () => import(missing),
      () => "unused",
    )();
    expect(result).toMatchObject({
      _tag: "Left",
      left: { _tag: "IndexUnavailable", backend: "sqlite", missingPackage: "better-sqlite3" },
    });
    const message = result._tag === "Left" && result.left._tag === "IndexUnavailable" ? result.left.message : "";
    expect(message).toContain("npm install better-sqlite3@12.11.1");
    expect(message).toContain(missing);
  });

  it("rejects a module of the wrong shape (an incompatible version) instead of failing later", async () => {
    const result = await loadDriver(
      "postgres",
      POSTGRES_DRIVER,
      () => import("node:path"),
      () => undefined,
    )();
    expect(result).toMatchObject({
      _tag: "Left",
      left: {
        _tag: "IndexUnavailable",
        backend: "postgres",
        missingPackage: "pg",
        message: expect.stringContaining("unexpected shape"),
      },
    });
  });

  it("reports a picker that throws on an odd module as IndexUnavailable, not a rejection", async () => {
    const result = await loadDriver(
      "postgres",
      POSTGRES_DRIVER,
      () => import("node:path"),
      (): string => {
        throw new Error("getter exploded");
      },
    )();
    expect(result).toMatchObject({
      _tag: "Left",
      left: { _tag: "IndexUnavailable", missingPackage: "pg", message: expect.stringContaining("getter exploded") },
    });
  });

  it("returns what the picker chose from a module that loads", async () => {
    const result = await loadDriver(
      "postgres",
      POSTGRES_DRIVER,
      () => import("node:path"),
      (mod) => mod.posix.sep,
    )();
    expect(result).toEqual({ _tag: "Right", right: "/" });
  });

  it("reports a non-Error rejection by its text", () => {
    expect(driverUnavailable("sqlite", SQLITE_DRIVER, "plain string")).toMatchObject({
      _tag: "IndexUnavailable",
      missingPackage: "better-sqlite3",
      message: expect.stringContaining("(plain string)"),
    });
  });
});

describe("options are checked before any driver is loaded", () => {
  it("bad SQLite options are InvalidOptions even where better-sqlite3 would load", async () => {
    const { openSqliteIndex } = await import("@cc/hierarchical");
    const r = await openSqliteIndex({ table: "bad-name", busyTimeoutMs: Number.NaN })();
    expect(r).toMatchObject({
      _tag: "Left",
      left: {
        _tag: "InvalidOptions",
        subject: "sqlite index options",
        problems: [{ path: "table" }, { path: "busyTimeoutMs" }],
      },
    });
  });

  it("SQLite options are decoded by a closed codec into the @cc/validate shape", async () => {
    const { openSqliteIndex } = await import("@cc/hierarchical");
    const typo = await openSqliteIndex({ busyTimeout: 5 } as never)();
    expect(typo).toMatchObject({
      _tag: "Left",
      left: {
        _tag: "InvalidOptions",
        subject: "sqlite index options",
        problems: [{ path: "busyTimeout", message: "busyTimeout: unknown field (did you mean busyTimeoutMs?)" }],
      },
    });
    expect(typo._tag === "Left" && "errors" in typo.left).toBe(false);
    for (const [field, value] of [
      ["summaryWeight", Number.NaN],
      ["summaryWeight", Number.POSITIVE_INFINITY],
      ["summaryWeight", 0],
      ["busyTimeoutMs", -1],
      ["busyTimeoutMs", 2 ** 31],
      ["busyTimeoutMs", 1.5],
    ] as const) {
      const r = await openSqliteIndex({ [field]: value })();
      expect(r).toMatchObject({
        _tag: "Left",
        left: { _tag: "InvalidOptions", subject: "sqlite index options", problems: [{ path: field }] },
      });
    }
  });

  it("a ready SqlClient is used as it is: pg is not needed for it", async () => {
    const { openPostgresIndex } = await import("@cc/hierarchical");
    const r = await openPostgresIndex({
      connection: {
        query: () => Promise.reject(new Error("no server behind this client")),
        transaction: () => Promise.reject(new Error("no server behind this client")),
        end: () => Promise.resolve(),
      },
    })();
    expect(r).toMatchObject({
      _tag: "Left",
      left: { _tag: "StorageError", backend: "postgres", operation: "open", message: "no server behind this client" },
    });
  });
});
