/**
 * Which namespaces of a SQLite index file hold an id: `expand` without `--namespace` looks the id
 * up in all of them. The file is opened read-only and must exist (it is never created).
 *
 * @module command/namespaces
 */
import * as E from "fp-ts/lib/Either.js";

/** The table `openSqliteIndex` writes by default. */
const TABLE = "cc_segments";

interface ReadOnlyDb {
  prepare(sql: string): { all(...params: readonly unknown[]): unknown[] };
  close(): void;
}

/** The namespaces (sorted) that hold `id` in the index at `path`; `Left` with the reason when it cannot be read. */
export async function findNamespaces(path: string, id: string): Promise<E.Either<string, readonly string[]>> {
  let db: ReadOnlyDb | undefined;
  try {
    // The driver @cc/hierarchical opens the index with (an optional peer dependency).
    const specifier = "better-sqlite3";
    const mod: unknown = await import(specifier);
    const Database: unknown = typeof mod === "object" && mod !== null && "default" in mod ? mod.default : undefined;
    if (typeof Database !== "function") return E.left("the better-sqlite3 driver is not installed");
    db = new (
      Database as new (p: string, o: { readonly readonly: boolean; readonly fileMustExist: boolean }) => ReadOnlyDb
    )(path, { readonly: true, fileMustExist: true });
    const rows = db.prepare(`SELECT DISTINCT namespace FROM ${TABLE} WHERE id = ? ORDER BY namespace`).all(id);
    return E.right(
      rows.flatMap((r) =>
        typeof r === "object" && r !== null && "namespace" in r && typeof r.namespace === "string" ? [r.namespace] : [],
      ),
    );
  } catch (e: unknown) {
    return E.left(e instanceof Error ? e.message : String(e));
  } finally {
    db?.close();
  }
}
