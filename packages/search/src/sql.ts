/**
 * The small SQL surface the PostgreSQL index runs on (a pool, a client, a transaction), apart
 * from the backend so the schema code can name it without an import cycle.
 *
 * @module search/sql
 */

/** Something that runs one parameterised statement (a pool, a client, a transaction). */
export interface SqlRunner {
  query<R>(text: string, params?: readonly unknown[]): Promise<{ readonly rows: readonly R[] }>;
}

/** The small SQL surface the backend needs: statements, transactions, shutdown. */
export interface SqlClient extends SqlRunner {
  /** Runs `fn` in one transaction (BEGIN … COMMIT, ROLLBACK on rejection). */
  transaction<A>(fn: (tx: SqlRunner) => Promise<A>): Promise<A>;
  /** Releases connections. */
  end(): Promise<void>;
}
