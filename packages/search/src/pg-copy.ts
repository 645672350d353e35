/**
 * Reading rows with `COPY (SELECT …) TO STDOUT (FORMAT binary)` on a node-postgres client: the
 * server's CopyData messages reach a callback as bytes, and the binary tuples are decoded by
 * {@link binaryCopyDecoder} into the few strings a row needs. A namespace's first load is read this
 * way: a plain query makes, per row, a string for every column, an array of them, a row object and
 * the parsing of a `bigint` from its text (about 1.2 MiB of short-lived objects for 1,000 rows,
 * measured with V8's sampling heap profiler), all of it garbage the moment the row is in the cache.
 *
 * @module search/pg-copy
 */
import { Buffer } from "node:buffer";
import { isRecord } from "@cc/validate";

/** The start of every binary COPY stream: the 11-byte signature, then a flags word and the header extension's length. */
const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");

/**
 * A decoder of one binary COPY stream whose tuples have `fields` fields: feed it each CopyData
 * message's bytes, in order; for every tuple it calls `onTuple` with the message's bytes and, per
 * field, where its bytes start and how many there are (-1: SQL NULL), in two arrays it reuses (read
 * them before returning; decode a field with `bytes.toString("utf8", start, start + length)` or
 * {@link int8At}). It throws on anything that is not a well-formed stream of such tuples (a wrong
 * signature or field count, a tuple cut across messages, bytes after the trailer); `done()` throws
 * unless the trailer was read. PostgreSQL sends the header with the first tuple and ends every
 * tuple with its message; a tuple cut across two messages is refused rather than reassembled.
 *
 * @example
 * const ids: string[] = [];
 * const decode = binaryCopyDecoder(1, (b, start, length) => {
 *   ids.push(b.toString("utf8", start[0]!, start[0]! + length[0]!));
 * });
 * // Each CopyData message's bytes in order: decode.feed(chunk); after the last one: decode.done().
 */
export function binaryCopyDecoder(
  fields: number,
  onTuple: (bytes: Buffer, start: Int32Array, length: Int32Array) => void,
): { readonly feed: (chunk: Buffer) => void; readonly done: () => void } {
  let header = false;
  let ended = false;
  const start = new Int32Array(fields);
  const length = new Int32Array(fields);
  return {
    feed: (b) => {
      let off = 0;
      if (!header) {
        if (b.length < 19 || b.compare(SIGNATURE, 0, 11, 0, 11) !== 0) malformed("no PGCOPY signature");
        off = 19 + b.readUInt32BE(15);
        if (off > b.length) malformed("header extension cut short");
        header = true;
      }
      while (off < b.length) {
        if (ended) malformed("bytes after the trailer");
        if (off + 2 > b.length) malformed("tuple cut short");
        const n = b.readInt16BE(off);
        off += 2;
        if (n === -1) {
          ended = true;
          continue;
        }
        if (n !== fields) malformed(`a tuple of ${n} fields, expected ${fields}`);
        for (let i = 0; i < n; i++) {
          if (off + 4 > b.length) malformed("tuple cut short");
          const len = b.readInt32BE(off);
          off += 4;
          if (len < -1 || off + Math.max(len, 0) > b.length) malformed("field cut short");
          start[i] = off;
          length[i] = len;
          if (len > 0) off += len;
        }
        onTuple(b, start, length);
      }
    },
    done: () => {
      if (!ended) malformed("no trailer");
    },
  };
}

/** Throws the error of a malformed COPY stream. */
function malformed(what: string): never {
  throw new Error(`malformed binary COPY data: ${what}`);
}

/**
 * The `int8` field of `length` bytes at `start` as a number; throws unless it is 8 bytes and a
 * safe integer.
 *
 * @example int8At(Buffer.from([0, 0, 0, 0, 0, 0, 1, 0]), 0, 8) // 256
 */
export function int8At(b: Buffer, start: number, length: number): number {
  if (length !== 8) malformed(`an int8 of ${length} bytes`);
  const hi = b.readInt32BE(start);
  const lo = b.readUInt32BE(start + 4);
  if (hi === 0) return lo;
  const v = hi * 2 ** 32 + lo;
  if (!Number.isSafeInteger(v)) malformed("an int8 beyond 2^53");
  return v;
}

/** The part of a node-postgres `Client` a copy needs: `query` taking a submittable, and its connection. */
interface NodePgClient {
  query(submittable: CopyOutQuery, callback: (error: Error | null | undefined) => void): unknown;
  readonly connection: { query(text: string): void; sendCopyFail(message: string): void };
}

/**
 * Whether `client` is a node-postgres `Client` (or a pool's checked-out client): it has `query` and
 * a `connection` that sends a simple query and a CopyFail, as pg's does. Anything else is read
 * with plain queries.
 */
export function isNodePgClient(client: unknown): client is NodePgClient {
  if (!isRecord(client) || typeof client["query"] !== "function") return false;
  const connection = client["connection"];
  return (
    isRecord(connection) &&
    typeof connection["query"] === "function" &&
    typeof connection["sendCopyFail"] === "function"
  );
}

/**
 * A node-postgres submittable running one `COPY … TO STDOUT`: each CopyData message goes to
 * `onData` as it arrives; the callback pg gives it (wrapped by pg with the client's
 * `query_timeout`, when one is set) is called once, with the server's error, the first error
 * `onData` threw (the rest of the copy is then read and dropped, so the connection stays usable),
 * or nothing once the server is ready again.
 */
class CopyOutQuery {
  callback: ((error: Error | null | undefined) => void) | undefined;
  private failure: Error | undefined;
  private settled = false;
  constructor(
    readonly text: string,
    private readonly onData: (chunk: Buffer) => void,
  ) {}
  private settle(error: Error | undefined): void {
    if (this.settled) return;
    this.settled = true;
    this.callback?.(error ?? null);
  }
  private unexpected(what: string): void {
    this.failure ??= new Error(`COPY TO STDOUT answered with ${what}`);
  }
  submit(connection: NodePgClient["connection"]): void {
    connection.query(this.text);
  }
  handleCopyData(message: { readonly chunk: Buffer }): void {
    if (this.failure !== undefined) return;
    try {
      this.onData(message.chunk);
    } catch (e) {
      this.failure = e instanceof Error ? e : new Error(String(e));
    }
  }
  handleCopyInResponse(connection: NodePgClient["connection"]): void {
    this.unexpected("a COPY FROM");
    connection.sendCopyFail("not a COPY TO STDOUT");
  }
  handleRowDescription(): void {
    this.unexpected("rows");
  }
  handleDataRow(): void {
    this.unexpected("rows");
  }
  handlePortalSuspended(): void {
    this.unexpected("a suspended portal");
  }
  handleEmptyQuery(): void {
    this.unexpected("nothing");
  }
  handleCommandComplete(): void {}
  handleError(error: Error): void {
    this.settle(error);
  }
  handleReadyForQuery(): void {
    this.settle(this.failure);
  }
}

/**
 * Runs `text` (a `COPY … TO STDOUT`) on a node-postgres client, handing each CopyData message to
 * `onData`; resolves once the server completed it, rejects with the server's error or the first
 * error `onData` threw.
 *
 * @example
 * import pg from "pg";
 * const client = new pg.Client({ connectionString: "postgres://localhost/journal" });
 * client.on("error", (e) => console.warn("PostgreSQL connection lost", e.message));
 * await client.connect();
 * const decoder = binaryCopyDecoder(1, (b, start, length) => console.log(int8At(b, start[0]!, length[0]!)));
 * if (isNodePgClient(client))
 *   await copyOut(client, "COPY (SELECT 1::int8) TO STDOUT (FORMAT binary)", (chunk) => decoder.feed(chunk));
 * decoder.done(); // it printed 1
 */
export function copyOut(client: NodePgClient, text: string, onData: (chunk: Buffer) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    client.query(new CopyOutQuery(text, onData), (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * `s` as a PostgreSQL string literal, whatever `standard_conforming_strings` is: quotes doubled,
 * and with backslashes doubled in the `E'…'` form when there is one. A NUL (which no PostgreSQL
 * text holds) is refused.
 *
 * @example sqlLiteral("it's") // "'it''s'"
 */
export function sqlLiteral(s: string): string {
  if (s.includes("\0")) throw new Error("a NUL character cannot be in a PostgreSQL string");
  const quoted = s.replace(/'/g, "''");
  return s.includes("\\") ? ` E'${quoted.replace(/\\/g, "\\\\")}'` : `'${quoted}'`;
}

/** Where a runner made by `pgClient` keeps its copy (a symbol: not part of the public `SqlRunner`). */
const COPY_OUT: unique symbol = Symbol("cc.search.copyOut");

/** A copy function: runs a `COPY … TO STDOUT`, handing each CopyData message to `onData`. */
export type CopyOut = (text: string, onData: (chunk: Buffer) => void) => Promise<void>;

/**
 * `runner` with `copy` attached where {@link copyOutOf} finds it (the runner is returned).
 *
 * @example
 * const runner = withCopyOut({ query: async () => ({ rows: [] }) }, async () => undefined);
 * copyOutOf(runner) !== undefined // true
 */
export function withCopyOut<R extends object>(runner: R, copy: CopyOut): R {
  Object.defineProperty(runner, COPY_OUT, { value: copy, enumerable: false });
  return runner;
}

/**
 * The copy attached to `runner` by {@link withCopyOut}, or undefined (a runner of another client:
 * read with plain queries).
 *
 * @example copyOutOf({ query: async () => ({ rows: [] }) }) // undefined: a runner of another client
 */
export function copyOutOf(runner: object): CopyOut | undefined {
  const copy = (runner as { readonly [COPY_OUT]?: CopyOut })[COPY_OUT];
  return typeof copy === "function" ? copy : undefined;
}

/** The type OIDs of the array elements the index reads: `text` and `int8`. */
export const TEXT_OID = 25;
export const INT8_OID = 20;

/**
 * Where the elements of a one-dimensional array field in PostgreSQL's binary format start: the
 * field's `length` bytes at `start` hold the number of dimensions, a flags word, the element type,
 * each dimension's size and lower bound, then every element as a length (-1: NULL) and its bytes.
 * Returns the element count and the offset of the first element's length; throws unless the field
 * is such an array (one dimension, or none when empty) of elements of type `oid` whose elements
 * all lie within the field. Read the elements with {@link elementLength}.
 *
 * @example
 * import { Buffer } from "node:buffer";
 * // text[] {"a"}: one dimension, no NULL, element type 25, size 1 from 1, then "a" (1 byte)
 * const b = Buffer.from([0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 25, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 97]);
 * arrayElements(b, 0, b.length, TEXT_OID) // { count: 1, at: 20 }
 */
export function arrayElements(
  b: Buffer,
  start: number,
  length: number,
  oid: number,
): { readonly count: number; readonly at: number } {
  const end = start + length;
  if (length < 12) malformed("an array field shorter than its header");
  const ndim = b.readInt32BE(start);
  if (b.readUInt32BE(start + 8) !== oid)
    malformed(`an array of element type ${b.readUInt32BE(start + 8)}, expected ${oid}`);
  if (ndim === 0) {
    if (length !== 12) malformed("bytes after an empty array");
    return { count: 0, at: end };
  }
  if (ndim !== 1 || length < 20) malformed(`an array of ${ndim} dimensions`);
  const count = b.readInt32BE(start + 12);
  if (count < 0) malformed("an array of negative size");
  // Every element's length and bytes within the field.
  let at = start + 20;
  for (let i = 0; i < count; i++) {
    if (at + 4 > end) malformed("array elements cut short");
    const len = b.readInt32BE(at);
    if (len < -1 || at + 4 + Math.max(len, 0) > end) malformed("an array element cut short");
    at += 4 + Math.max(len, 0);
  }
  if (at !== end) malformed("bytes after an array's elements");
  return { count, at: start + 20 };
}

/**
 * The length of the array element at `at` (-1: NULL) — its bytes follow the 4 bytes at `at` —
 * for an array {@link arrayElements} checked; the next element is at `at + 4 + max(length, 0)`.
 *
 * @example
 * import { Buffer } from "node:buffer";
 * const b = Buffer.from([0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 25, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 97]);
 * const { at } = arrayElements(b, 0, b.length, TEXT_OID);
 * b.toString("utf8", at + 4, at + 4 + elementLength(b, at)) // "a"
 */
export function elementLength(b: Buffer, at: number): number {
  return b.readInt32BE(at);
}
