/**
 * Run in a fresh Node process: imports @cc/lcm and the package named on the command line (default
 * `@cc/session`; a path to a built `dist/index.js` works too), compacts in memory, then opens a SQLite and a
 * PostgreSQL store, and prints as JSON which driver files Node's module cache held after each
 * step and what each open returned. With `--hide-drivers`, a resolve hook makes better-sqlite3
 * and pg unresolvable first, as on a machine where they are not installed.
 *
 *   node --import tsx --conditions=development load-probe.ts [specifier] [--hide-drivers]
 */
import { createRequire } from "node:module";
import { hideDrivers } from "../../../../.ci/support/hide-drivers.js";
import type * as Lcm from "@cc/lcm";
import type * as Session from "@cc/session";
import type { Message } from "@cc/messages";
import type { Either } from "fp-ts/lib/Either.js";

const args = process.argv.slice(2);
const hide = args.includes("--hide-drivers");
const specifier = args.find((a) => !a.startsWith("--")) ?? "@cc/session";

if (hide) hideDrivers();

const watched = {
  sqlite: "/node_modules/better-sqlite3/",
  pg: "/node_modules/pg/",
  tiktoken: "/node_modules/@dqbd/tiktoken/",
} as const;
type Watched = keyof typeof watched;
const cache = createRequire(import.meta.url).cache;
const loaded = (): readonly Watched[] => {
  const files = Object.keys(cache).map((file) => file.replaceAll("\\", "/"));
  return (Object.keys(watched) as Watched[]).filter((name) => files.some((file) => file.includes(watched[name])));
};

type Outcome = { readonly tag: "Right" } | { readonly tag: "Left"; readonly error: Session.StoreError };
const outcome = async (opened: Either<Session.StoreError, Session.SummaryStore>): Promise<Outcome> => {
  if (opened._tag === "Left") return { tag: "Left", error: opened.left };
  await opened.right.close()();
  return { tag: "Right" };
};

const steps: Record<string, readonly Watched[]> = { before: loaded() };
const lcm = (await import("@cc/lcm")) as typeof Lcm;
const session = (await import(specifier)) as typeof Session;
steps["afterImport"] = loaded();

const compactor = lcm.createLcmCompactor({ provider: lcm.offlineProvider() });
const conversation: Message[] = Array.from({ length: 12 }, (_, i) => ({
  role: i % 2 === 0 ? "user" : "assistant",
  content: `turn ${i}: ${"words ".repeat(40)}`,
}));
const compacted = await compactor.compact(conversation, { maxTokens: 300, preserveLast: 2 })();
const memory = session.memoryStore();
const appended = await memory.append("probe", conversation, 1)();
steps["afterMemory"] = loaded();

const sqlite = await session.openSqliteStore({ path: ":memory:" })();
const sqliteOutcome = await outcome(sqlite);
steps["afterSqlite"] = loaded();

// Nothing listens on port 1: with pg present the open fails to connect, without it pg is missing.
const postgres = await session.openPostgresStore({ connection: "postgres://nobody@127.0.0.1:1/none" })();
const postgresOutcome = await outcome(postgres);
steps["afterPostgres"] = loaded();

process.stdout.write(
  `${JSON.stringify({
    steps,
    compacted: compacted._tag === "Right" ? compacted.right.messagesCompacted : -1,
    appended: appended._tag === "Right" ? appended.right.length : -1,
    sqlite: sqliteOutcome,
    postgres: postgresOutcome,
  })}\n`,
);
