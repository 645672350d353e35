// Shared test plumbing: unwrap TaskEithers, make throwaway PostgreSQL databases, odd strings.
import { randomBytes } from "node:crypto";
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import pg from "pg";
import { expect, inject } from "vitest";
import { ownPgPool } from "@cc/test-support/search";
import { runsFor } from "../../../.ci/support/runs.js";

/** Runs `te` and returns its Right value, failing the test with the Left otherwise. */
export async function right<L, A>(te: TaskEither<L, A>): Promise<A> {
  const result = await te();
  if (E.isLeft(result)) expect.fail(`expected Right, got Left ${JSON.stringify(result.left)}`);
  return result.right;
}

/** Runs `te` and returns its Left value, failing the test with the Right otherwise. */
export async function left<L, A>(te: TaskEither<L, A>): Promise<L> {
  const result = await te();
  if (E.isRight(result)) expect.fail(`expected Left, got Right ${JSON.stringify(result.right)}`);
  return result.left;
}

/** The admin URL of the test PostgreSQL server; throws (failing the test) when there is none. */
export function pgAdminUrl(): string {
  const url = inject("pgUrl");
  if (url === "") throw new Error(`PostgreSQL is required for this test: ${inject("pgError")}`);
  return url;
}

/**
 * A pg client with an 'error' listener: a connection the server ends (a dropped database, a
 * terminated backend) is then an error of its next query, never an uncaught exception.
 */
export function guardedClient(connectionString: string): pg.Client {
  const client = new pg.Client({ connectionString });
  client.on("error", () => undefined);
  return client;
}

/** A pg pool with an 'error' listener on the pool and on every client, and an `end` that waits for the sockets to close. */
export function guardedPool(
  connectionString: string,
  max: number,
): { readonly pool: pg.Pool; readonly end: () => Promise<void> } {
  const pool = new pg.Pool({ connectionString, max });
  const owned = ownPgPool(pool);
  return { pool, end: () => owned.end() };
}

/** A fresh database on the test server and a function that drops it. */
export async function freshDatabase(): Promise<{ readonly url: string; readonly drop: () => Promise<void> }> {
  const admin = pgAdminUrl();
  const name = `cc_test_${randomBytes(6).toString("hex")}`;
  const client = guardedClient(admin);
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = guardedClient(admin);
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Strings that break naive storage: lone surrogates, NUL, CJK, emoji, combining marks, RTL. */
export const oddStrings: readonly string[] = [
  "lone high \ud800 surrogate",
  "lone low \udc00 surrogate",
  "NUL \u0000 inside",
  "中文上下文压缩",
  "emoji 🧠🔥👩‍💻",
  "e\u0301 combining",
  "RTL \u202e txet",
  "",
];

/** fast-check runs: at least 1000 in CI, fewer locally. */
export const runs = (local: number): number => runsFor(local, Math.max(1000, local));
