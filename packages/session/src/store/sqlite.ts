/**
 * SQLite {@link SummaryStore} (better-sqlite3): one file, nothing to start. The schema follows the
 * chat-history / chat-summaries layout; migrations run on open and are versioned with
 * `PRAGMA user_version`. WAL journal, a busy timeout for several processes on one file, and
 * every write in one `BEGIN IMMEDIATE` transaction. better-sqlite3 is loaded when a store is
 * opened, not when this module is imported (see `driver.ts`).
 *
 * @module session/store/sqlite
 */
import type Database from "better-sqlite3";
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { pipe } from "fp-ts/lib/function.js";
import { decodeWith, intIn, leaf, nonNegativeInt, objectCodec } from "@cc/validate";
import { loadDriver, SQLITE_DRIVER } from "./driver.js";
import type { StackId, StoreError, StoredMessage, StoredSummary, SummaryStore } from "./store.js";
import {
  checkDraft,
  checkId,
  checkMessages,
  checkNow,
  checkStackId,
  decodeContent,
  decodeMessage,
  encodeContent,
  encodeMessage,
  watermarkProblem,
} from "./validate.js";

/** Schema migrations, applied in order; migration `i` brings `user_version` to `i + 1`. */
export const SQLITE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE cc_stacks (
     stack_id TEXT PRIMARY KEY,
     last_message_id INTEGER NOT NULL DEFAULT 0
   );
   CREATE TABLE cc_chat_history (
     stack_id TEXT NOT NULL,
     id INTEGER NOT NULL,
     role TEXT NOT NULL,
     body TEXT NOT NULL,
     created_at REAL NOT NULL,
     PRIMARY KEY (stack_id, id)
   ) WITHOUT ROWID;
   CREATE TABLE cc_chat_summaries (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     stack_id TEXT NOT NULL,
     content TEXT NOT NULL,
     covers_up_to_message_id INTEGER NOT NULL,
     previous_id INTEGER REFERENCES cc_chat_summaries(id),
     created_at REAL NOT NULL
   );
   CREATE INDEX idx_cc_chat_summaries_stack ON cc_chat_summaries (stack_id, id);
   CREATE UNIQUE INDEX uq_cc_chat_summaries_chain ON cc_chat_summaries (stack_id, coalesce(previous_id, 0));`,
];

/**
 * Options of {@link openSqliteStore}, decoded by a closed codec ({@link SqliteStoreOptionsCodec}):
 * an unknown key (with a "did you mean"), a missing or empty `path`, NaN, ±Infinity, a negative or
 * fractional number is `Left(InvalidOptions)` with subject "sqlite store options", naming the field.
 *
 * @example openSqliteStore({ path: "agent.db", busyTimeoutMs: 10000, mmapSizeBytes: 0 })
 */
export interface SqliteStoreOptions {
  /** The database file, or `":memory:"` for a private in-memory database (never empty: SQLite would open a hidden temporary file). */
  readonly path: string;
  /**
   * How long a writer waits for another process's lock, in ms: an integer in [0, 2³¹ − 1] (the same default as the SQLite index).
   * @default 10000
   */
  readonly busyTimeoutMs?: number;
  /**
   * How much of the file reads may map into memory (`PRAGMA mmap_size`), in bytes (a non-negative integer); 0 turns
   * mapping off. Default 256 MiB. Mapped reads skip a system call and a copy per page: a
   * prompt-building read of a long stack is several times faster. Ignored for `":memory:"`.
   * @default 268435456 (256 MiB)
   */
  readonly mmapSizeBytes?: number;
}

/**
 * io-ts codec of {@link SqliteStoreOptions} (closed).
 *
 * @example SqliteStoreOptionsCodec.is({ path: "agent.db", busyTimeout: 5 }) // false: busyTimeout is not a field
 */
export const SqliteStoreOptionsCodec = objectCodec(
  "SqliteStoreOptions",
  {
    path: leaf(
      "SqlitePath",
      'a non-empty file path or ":memory:"',
      (u): u is string => typeof u === "string" && u !== "",
    ),
  },
  { busyTimeoutMs: intIn(0, 2_147_483_647), mmapSizeBytes: nonNegativeInt },
  { expected: "a store options object" },
);

const decodeSqliteStoreOptions = decodeWith(SqliteStoreOptionsCodec, "InvalidOptions", "sqlite store options");

/** A `cc_chat_history` row read in raw (array) mode: id, body, created_at. */
type MessageRow = readonly [id: number, body: string, createdAt: number];

/** Default of {@link SqliteStoreOptions.mmapSizeBytes}. */
const DEFAULT_MMAP_BYTES = 256 * 1024 * 1024;

interface SummaryRow {
  readonly id: number;
  readonly content: string;
  readonly covers_up_to_message_id: number;
  readonly previous_id: number | null;
  readonly created_at: number;
}

const unavailable = (e: unknown): StoreError => ({
  _tag: "StoreUnavailable",
  backend: "sqlite",
  message: e instanceof Error ? e.message : String(e),
});

/**
 * Brings the schema of `db` to the newest version in one `BEGIN IMMEDIATE` transaction, so
 * processes opening a fresh file at the same moment migrate it once; refuses a database from a
 * newer library.
 */
function migrate(db: Database.Database): void {
  db.transaction(() => {
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version > SQLITE_MIGRATIONS.length) {
      throw new Error(
        `database schema version ${version} is newer than this library supports (${SQLITE_MIGRATIONS.length})`,
      );
    }
    if (version === SQLITE_MIGRATIONS.length) return;
    for (const sql of SQLITE_MIGRATIONS.slice(version)) db.exec(sql);
    db.pragma(`user_version = ${SQLITE_MIGRATIONS.length}`);
  }).immediate();
}

/**
 * Opens (creating and migrating when needed) a SQLite store at `path` (`":memory:"` for a
 * private in-memory database). Loads better-sqlite3 on first run; when it cannot be loaded the
 * result is a `StoreUnavailable` whose `missingPackage` is `"better-sqlite3"`. Invalid options are
 * `Left(InvalidOptions)` before anything is opened (see {@link SqliteStoreOptions}).
 *
 * @example
 * const store = await openSqliteStore({ path: "agent.db" })();
 */
export function openSqliteStore(options: SqliteStoreOptions): TE.TaskEither<StoreError, SummaryStore> {
  const decoded = decodeSqliteStoreOptions(options);
  if (E.isLeft(decoded)) return TE.left(decoded.left);
  const { path, busyTimeoutMs, mmapSizeBytes } = decoded.right;
  return pipe(
    loadDriver(
      "sqlite",
      SQLITE_DRIVER,
      () => import("better-sqlite3"),
      (mod) => (typeof mod.default === "function" ? mod.default : undefined),
    ),
    TE.chainEitherK((Driver) =>
      E.tryCatch(() => {
        const db = new Driver(path, { timeout: busyTimeoutMs ?? 10_000 });
        try {
          if (path !== ":memory:") {
            db.pragma("journal_mode = WAL");
            db.pragma(`mmap_size = ${mmapSizeBytes ?? DEFAULT_MMAP_BYTES}`);
          }
          db.pragma("foreign_keys = ON");
          migrate(db);
        } catch (e) {
          db.close();
          throw e;
        }
        return sqliteStore(db);
      }, unavailable),
    ),
  );
}

/**
 * Turns rows of one stack into stored messages, stopping at the first row whose body does not
 * decode (a `StoreCorruptRow` naming its id). A plain loop: one result object per row, nothing else.
 */
function toMessages(stackId: StackId, rows: readonly MessageRow[]): E.Either<StoreError, readonly StoredMessage[]> {
  const out: StoredMessage[] = new Array<StoredMessage>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const [id, body, createdAt] = rows[i]!;
    const message = decodeMessage(body);
    if (E.isLeft(message))
      return E.left({ _tag: "StoreCorruptRow", backend: "sqlite", stackId, id, message: message.left });
    out[i] = { stackId, id, message: message.right, createdAt };
  }
  return E.right(out);
}

function toSummary(stackId: StackId, row: SummaryRow): E.Either<StoreError, StoredSummary> {
  return pipe(
    decodeContent(row.content),
    E.mapLeft((message): StoreError => ({ _tag: "StoreCorruptRow", backend: "sqlite", stackId, id: row.id, message })),
    E.map((content) => ({
      stackId,
      id: row.id,
      content,
      coversUpTo: row.covers_up_to_message_id,
      previousId: row.previous_id,
      createdAt: row.created_at,
    })),
  );
}

function sqliteStore(db: Database.Database): SummaryStore {
  const bump = db.prepare<[string, number], { last_message_id: number }>(
    `INSERT INTO cc_stacks (stack_id, last_message_id) VALUES (?, ?)
     ON CONFLICT (stack_id) DO UPDATE SET last_message_id = last_message_id + excluded.last_message_id
     RETURNING last_message_id`,
  );
  const insertMessage = db.prepare<[string, number, string, string, number]>(
    "INSERT INTO cc_chat_history (stack_id, id, role, body, created_at) VALUES (?, ?, ?, ?, ?)",
  );
  const selectAfter = db
    .prepare<[string, number], MessageRow>(
      "SELECT id, body, created_at FROM cc_chat_history WHERE stack_id = ? AND id > ? ORDER BY id",
    )
    .raw(true);
  const selectLastId = db.prepare<[string], { last_message_id: number }>(
    "SELECT last_message_id FROM cc_stacks WHERE stack_id = ?",
  );
  const selectLatest = db.prepare<[string], SummaryRow>(
    `SELECT id, content, covers_up_to_message_id, previous_id, created_at
     FROM cc_chat_summaries WHERE stack_id = ? ORDER BY id DESC LIMIT 1`,
  );
  const insertSummary = db.prepare<[string, string, number, number | null, number], SummaryRow>(
    `INSERT INTO cc_chat_summaries (stack_id, content, covers_up_to_message_id, previous_id, created_at)
     VALUES (?, ?, ?, ?, ?) RETURNING id, content, covers_up_to_message_id, previous_id, created_at`,
  );

  const run = <A>(body: () => E.Either<StoreError, A>): TE.TaskEither<StoreError, A> =>
    TE.fromEither(pipe(E.tryCatch(body, unavailable), E.flatten));

  const appendTx = db.transaction((stackId: string, messages: readonly StoredMessage["message"][], now: number) => {
    const last = bump.get(stackId, messages.length)!.last_message_id;
    const first = last - messages.length + 1;
    return messages.map((message, i): StoredMessage => {
      insertMessage.run(stackId, first + i, message.role, encodeMessage(message), now);
      return { stackId, id: first + i, message, createdAt: now };
    });
  });

  const saveTx = db.transaction(
    (stackId: string, content: string, coversUpTo: number, previousId: number | null, now: number) => {
      const latest = selectLatest.get(stackId);
      const actual = latest?.id ?? null;
      if (actual !== previousId) {
        return E.left<StoreError, SummaryRow>({
          _tag: "SummaryConflict",
          stackId,
          expectedPreviousId: previousId,
          actualPreviousId: actual,
        });
      }
      const lastId = selectLastId.get(stackId)?.last_message_id ?? 0;
      const problem = watermarkProblem(coversUpTo, lastId, latest?.covers_up_to_message_id ?? 0);
      if (problem !== undefined)
        return E.left<StoreError, SummaryRow>({ _tag: "InvalidWatermark", stackId, coversUpTo, message: problem });
      return E.right<StoreError, SummaryRow>(
        insertSummary.get(stackId, encodeContent(content), coversUpTo, previousId, now)!,
      );
    },
  );

  return {
    backend: "sqlite",
    append: (stackId, messages, now) =>
      run(() =>
        pipe(
          E.Do,
          E.apS("stackId", checkStackId(stackId)),
          E.apS("messages", checkMessages(messages)),
          E.apS("now", checkNow(now)),
          E.map((v) => (v.messages.length === 0 ? [] : appendTx.immediate(v.stackId, v.messages, v.now))),
        ),
      ),
    saveSummary: (stackId, draft, now) =>
      run(() =>
        pipe(
          E.Do,
          E.apS("stackId", checkStackId(stackId)),
          E.apS("draft", checkDraft(draft)),
          E.apS("now", checkNow(now)),
          E.chain((v) =>
            pipe(
              saveTx.immediate(v.stackId, v.draft.content, v.draft.coversUpTo, v.draft.previousId, v.now),
              E.chain((row) => toSummary(v.stackId, row)),
            ),
          ),
        ),
      ),
    latestSummary: (stackId) =>
      run(() =>
        pipe(
          checkStackId(stackId),
          E.chain((id): E.Either<StoreError, O.Option<StoredSummary>> => {
            const row = selectLatest.get(id);
            return row === undefined ? E.right(O.none) : E.map((s: StoredSummary) => O.some(s))(toSummary(id, row));
          }),
        ),
      ),
    messagesAfter: (stackId, afterId) =>
      run(() =>
        pipe(
          E.Do,
          E.apS("stackId", checkStackId(stackId)),
          E.apS("afterId", checkId("afterId", afterId)),
          E.chain((v) => toMessages(v.stackId, selectAfter.all(v.stackId, v.afterId))),
        ),
      ),
    lastMessageId: (stackId) =>
      run(() => E.map((id: string) => selectLastId.get(id)?.last_message_id ?? 0)(checkStackId(stackId))),
    close: () =>
      run(() => {
        if (db.open) db.close();
        return E.right(undefined);
      }),
  };
}
