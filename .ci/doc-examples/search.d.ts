// Values the examples of @cc/search use without building them (see .ci/doc-examples.ts; read as
// packages/search/src/doc-fixtures.ts).
import type { PgPoolLike, SqlClient } from "./index.js";
import type { PostingsCache } from "./ranking/postings.js";

/** A node-postgres pool the caller owns. */
export declare const pool: PgPoolLike;
/** The SQL client over {@link pool}. */
export declare const client: SqlClient;
/** A postings cache of the memory or SQLite backend. */
export declare const cache: PostingsCache<number>;
