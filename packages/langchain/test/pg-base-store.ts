// A LangGraph BaseStore kept in a real PostgreSQL table, laid out like LangGraph's PostgresStore
// (namespace joined with ".", one row per item, each operation its own autocommit statement, a
// put an upsert), so that separate OS processes can share one backend in the tests.
import { createRequire } from "node:module";
import { BaseStore, type Item, type Operation, type OperationResults } from "@langchain/langgraph";

/** The part of a `pg` client used here. */
interface PgClient {
  connect(): Promise<unknown>;
  query(text: string, values?: readonly unknown[]): Promise<{ readonly rows: readonly Record<string, unknown>[] }>;
  end(): Promise<void>;
  on(event: "error", listener: () => void): unknown;
}

// `pg` is a development dependency of @cc/session: loaded from there.
const load = createRequire(new URL("../../session/package.json", import.meta.url));
const { Client } = load("pg") as { Client: new (options: { connectionString: string }) => PgClient };

const TABLE =
  "CREATE TABLE IF NOT EXISTS lg_store (prefix text NOT NULL, key text NOT NULL, value jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (prefix, key))";

const item = (row: Record<string, unknown>): Item => ({
  namespace: String(row["prefix"]).split("."),
  key: String(row["key"]),
  value: row["value"] as Record<string, unknown>,
  createdAt: row["created_at"] as Date,
  updatedAt: row["updated_at"] as Date,
});

/** A BaseStore over one PostgreSQL connection. */
export class PgBaseStore extends BaseStore {
  private constructor(private readonly client: PgClient) {
    super();
  }

  /** Connects to `url` and creates the table when `create` is set (one process does, before the others start). */
  static async open(url: string, create: boolean): Promise<PgBaseStore> {
    const client = new Client({ connectionString: url });
    client.on("error", () => undefined);
    await client.connect();
    if (create) await client.query(TABLE);
    return new PgBaseStore(client);
  }

  /** Runs the operations: the gets in one statement, every other operation in a statement of its own. */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = operations.map(() => null);
    const gets = operations.flatMap((op, i) =>
      "key" in op && !("value" in op) ? [{ i, prefix: op.namespace.join("."), key: op.key }] : [],
    );
    if (gets.length > 0) {
      const { rows } = await this.client.query(
        "SELECT s.*, w.i FROM unnest($1::text[], $2::text[], $3::int[]) AS w(prefix, key, i) JOIN lg_store s ON s.prefix = w.prefix AND s.key = w.key",
        [gets.map((g) => g.prefix), gets.map((g) => g.key), gets.map((g) => g.i)],
      );
      for (const row of rows) results[Number(row["i"])] = item(row);
    }
    for (const [i, op] of operations.entries()) {
      if ("namespacePrefix" in op) {
        const prefix = op.namespacePrefix.join(".");
        const { rows } = await this.client.query(
          "SELECT * FROM lg_store WHERE prefix = $1 OR left(prefix, length($1) + 1) = $1 || '.' ORDER BY prefix, key LIMIT $2 OFFSET $3",
          [prefix, op.limit ?? 10, op.offset ?? 0],
        );
        results[i] = rows.map(item);
      } else if ("key" in op && "value" in op) {
        const prefix = op.namespace.join(".");
        if (op.value === null)
          await this.client.query("DELETE FROM lg_store WHERE prefix = $1 AND key = $2", [prefix, op.key]);
        else
          await this.client.query(
            "INSERT INTO lg_store (prefix, key, value) VALUES ($1, $2, $3) ON CONFLICT (prefix, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()",
            [prefix, op.key, JSON.stringify(op.value)],
          );
      } else if (!("key" in op)) {
        throw new Error("listNamespaces is not supported by this store");
      }
    }
    return results as OperationResults<Op>;
  }

  /** Closes the connection. */
  async end(): Promise<void> {
    await this.client.end();
  }
}
