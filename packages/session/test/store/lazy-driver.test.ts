import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { StoreError } from "@cc/session";
import { driverUnavailable, loadDriver } from "../../src/store/driver.js";
import { POSTGRES_DRIVER, SQLITE_DRIVER } from "@cc/search";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../../../..");

type Loaded = "sqlite" | "pg" | "tiktoken";
interface Probe {
  readonly steps: Readonly<
    Record<"before" | "afterImport" | "afterMemory" | "afterSqlite" | "afterPostgres", readonly Loaded[]>
  >;
  readonly compacted: number;
  readonly appended: number;
  readonly sqlite: { readonly tag: "Right" } | { readonly tag: "Left"; readonly error: StoreError };
  readonly postgres: { readonly tag: "Right" } | { readonly tag: "Left"; readonly error: StoreError };
}

/** Runs the probe in a fresh Node process, where nothing is loaded yet. */
async function probe(...flags: readonly string[]): Promise<Probe> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--conditions=development", join(here, "load-probe.ts"), "@cc/session", ...flags],
    { cwd: root },
  );
  return JSON.parse(stdout) as Probe;
}

describe("database drivers are loaded when a store is opened, not on import", () => {
  it("importing @cc/lcm and @cc/session loads nothing; compacting in memory loads no driver (only the exact counter's ranks); each open loads only its driver", async () => {
    const seen = await probe();
    expect(seen.steps.before).toEqual([]);
    expect(seen.steps.afterImport).toEqual([]);
    // Exact counts are the compactor's default: the encoding's ranks may load, a driver never.
    const drivers = (step: readonly string[] | undefined): readonly string[] =>
      (step ?? []).filter((name) => name !== "tiktoken");
    expect(drivers(seen.steps.afterMemory)).toEqual([]);
    expect(seen.compacted).toBeGreaterThan(0);
    expect(seen.appended).toBe(12);
    // The detector sees real loads: each open pulls in its own driver and nothing else.
    expect(drivers(seen.steps.afterSqlite)).toEqual(["sqlite"]);
    expect(seen.sqlite).toEqual({ tag: "Right" });
    expect(drivers(seen.steps.afterPostgres)).toEqual(["sqlite", "pg"]);
    expect(seen.postgres).toMatchObject({
      tag: "Left",
      error: {
        _tag: "StoreConnectionLost",
        backend: "postgres",
        code: "ECONNREFUSED",
        message: expect.stringContaining("ECONNREFUSED"),
      },
    });
    expect(seen.postgres.tag === "Left" && "missingPackage" in seen.postgres.error).toBe(false);
  });

  it("without the drivers installed, the compactor still works and each open is a StoreUnavailable naming the package", async () => {
    const seen = await probe("--hide-drivers");
    expect(seen.compacted).toBeGreaterThan(0);
    expect(seen.appended).toBe(12);
    expect(seen.sqlite).toMatchObject({
      tag: "Left",
      error: {
        _tag: "StoreUnavailable",
        backend: "sqlite",
        missingPackage: "better-sqlite3",
        message: expect.stringContaining("npm install better-sqlite3@12.11.1"),
      },
    });
    expect(seen.postgres).toMatchObject({
      tag: "Left",
      error: {
        _tag: "StoreUnavailable",
        backend: "postgres",
        missingPackage: "pg",
        message: expect.stringContaining("npm install pg@8.23.1"),
      },
    });
    expect((seen.steps.afterPostgres ?? []).filter((name) => name !== "tiktoken")).toEqual([]);
  });
});

describe("loadDriver", () => {
  it("turns a failed import into StoreUnavailable with the package, the install command and the cause", async () => {
    const missing = `cc-no-such-driver-${process.pid}`;
    const result = await loadDriver(
      "sqlite",
      SQLITE_DRIVER,
      () => import(missing),
      () => "unused",
    )();
    expect(result).toMatchObject({
      _tag: "Left",
      left: { _tag: "StoreUnavailable", backend: "sqlite", missingPackage: "better-sqlite3" },
    });
    const message = result._tag === "Left" && result.left._tag === "StoreUnavailable" ? result.left.message : "";
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
        _tag: "StoreUnavailable",
        backend: "postgres",
        missingPackage: "pg",
        message: expect.stringContaining("unexpected shape"),
      },
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
      _tag: "StoreUnavailable",
      missingPackage: "better-sqlite3",
      message: expect.stringContaining("(plain string)"),
    });
  });
});
