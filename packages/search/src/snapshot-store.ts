/**
 * Where postings snapshots are kept: a small interface (read, write, remove a named blob) and its
 * directory implementation. A directory write is atomic: the bytes go to a temporary file in the
 * same directory, which is fsynced and renamed over the name (then the directory is fsynced), so a
 * reader sees the old blob or the new one, never a part. A temporary file left by a writer that
 * was killed is never read (readers open the exact name) and is removed by a later write of the
 * same name.
 *
 * @module search/snapshot-store
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";

/** A failed store operation (e.g. `ENOSPC` for a full disk, `EACCES`/`EROFS` for a directory that cannot be written). */
export interface SnapshotStoreError {
  readonly operation: "read" | "write" | "remove";
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/** Sees each part of a blob as it is read: its bytes, where they start, the blob's full length. */
export type ChunkObserver = (chunk: Uint8Array, offset: number, total: number) => void;

/** A blob opened for reads of its parts (see {@link SnapshotStore.open}). */
export interface SnapshotBlob {
  /** Its length in bytes when it was opened. */
  readonly size: number;
  /** Reads its bytes from `offset` into `into` (as many as fit); resolves to how many were read (fewer at its end). May reject. */
  readonly readInto: (offset: number, into: Uint8Array) => Promise<number>;
  /** Lets it go (idempotent; reads after it reject). */
  readonly close: () => Promise<void>;
}

/** A store of named blobs. Never throws: failures are `Left`. */
export interface SnapshotStore {
  /** The blob, or `Right(undefined)` when there is none; `onChunk` sees its bytes in order as they arrive. */
  readonly read: (
    name: string,
    onChunk?: ChunkObserver,
  ) => Promise<E.Either<SnapshotStoreError, Uint8Array | undefined>>;
  /** Replaces the blob atomically. */
  readonly write: (name: string, bytes: Uint8Array) => Promise<E.Either<SnapshotStoreError, void>>;
  /** Removes the blob (none is no error). */
  readonly remove: (name: string) => Promise<E.Either<SnapshotStoreError, void>>;
  /**
   * Opens the blob for reads of its parts (`Right(undefined)` when there is none): a reader reads
   * what it needs first and the rest when it needs it, and every read sees the blob that was
   * opened, whatever replaces it meanwhile. Optional: a store without it is read whole.
   */
  readonly open?: (name: string) => Promise<E.Either<SnapshotStoreError, SnapshotBlob | undefined>>;
}

/** Bytes read per call: a checksum of one part runs while the next ones are read. */
const CHUNK = 8 << 20;
/**
 * Reads in flight at once: the reader's own work on the main thread (the checksum, the index's
 * entry count started on the first bytes) overlaps with the file's next parts, not just one.
 */
const READ_AHEAD = 4;
/** A temporary file older than this is a dead writer's, whatever host wrote it (ms). */
const STALE_TEMP_MS = 10 * 60_000;
const SNAPSHOT_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}$/;
/** Throws unless `name` is one a snapshot store accepts (every store checks names this way). */
export const checkSnapshotName = (name: string): void => {
  if (!SNAPSHOT_NAME.test(name)) throw new Error(`snapshot name ${JSON.stringify(name)}: letters, digits, _ . - only`);
};

const codeOf = (e: unknown): string | undefined =>
  typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" ? e.code : undefined;
/** A store's failure as its error value: the operation, the snapshot's name, the cause's message and code. */
export const snapshotFailure = (
  operation: SnapshotStoreError["operation"],
  name: string,
  e: unknown,
): SnapshotStoreError => {
  const code = codeOf(e);
  return {
    operation,
    name,
    message: e instanceof Error ? e.message : String(e),
    ...(code === undefined ? {} : { code }),
  };
};

/** True when process `pid` runs on this host. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return codeOf(e) === "EPERM";
  }
}

/**
 * The snapshot store of one directory (created on the first write). Temporary files are named
 * `<name>.<host>.<pid>.<random>.tmp`; one whose writer is gone (same host, process not running) or
 * that is older than ten minutes is removed before `name` is written again.
 *
 * @example
 * const store = directorySnapshotStore("/var/cache/agent/snapshots");
 * await store.write("cc_segments.ab12.ccsnap", new Uint8Array([1, 2, 3]));
 */
export function directorySnapshotStore(dir: string): SnapshotStore {
  const host = hostname().replace(/[^A-Za-z0-9_-]/g, "_");
  const check = checkSnapshotName;
  const cleanTemps = async (name: string): Promise<void> => {
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch {
      return;
    }
    const now = Date.now();
    for (const f of names) {
      if (!f.startsWith(`${name}.`) || !f.endsWith(".tmp")) continue;
      const parts = f.slice(name.length + 1, -4).split(".");
      const [h, pid] = [parts[0], Number(parts[1])];
      const path = join(dir, f);
      const st = await fs.stat(path).catch(() => undefined);
      if (st === undefined) continue;
      const dead =
        (h === host && Number.isSafeInteger(pid) && pid !== process.pid && !alive(pid)) ||
        now - st.mtimeMs > STALE_TEMP_MS;
      if (dead) await fs.unlink(path).catch(() => undefined);
    }
  };
  return {
    read: async (name, onChunk) => {
      let fh: fs.FileHandle | undefined;
      // Parts requested and not yet taken, in file order (each settled before the file is closed).
      const inFlight: {
        readonly at: number;
        readonly length: number;
        readonly done: Promise<{ bytesRead: number }>;
      }[] = [];
      try {
        check(name);
        fh = await fs.open(join(dir, name), "r");
        const { size } = await fh.stat();
        const buf = Buffer.allocUnsafeSlow(size);
        const h = fh;
        let requested = 0;
        const request = (): void => {
          while (inFlight.length < READ_AHEAD && requested < size) {
            const length = Math.min(CHUNK, size - requested);
            inFlight.push({ at: requested, length, done: h.read(buf, requested, length, requested) });
            requested += length;
          }
        };
        request();
        let off = 0;
        for (let part = inFlight.shift(); part !== undefined; part = inFlight.shift()) {
          const { bytesRead } = await part.done;
          off = part.at + bytesRead;
          // A part read short: the file is shorter than it was (the decoder refuses what was read as truncated).
          if (bytesRead < part.length) {
            if (bytesRead > 0) onChunk?.(buf.subarray(part.at, off), part.at, size);
            break;
          }
          request();
          onChunk?.(buf.subarray(part.at, off), part.at, size);
        }
        return E.right(off === size ? buf : buf.subarray(0, off));
      } catch (e) {
        return codeOf(e) === "ENOENT" ? E.right(undefined) : E.left(snapshotFailure("read", name, e));
      } finally {
        await Promise.allSettled(inFlight.map((p) => p.done));
        await fh?.close().catch(() => undefined);
      }
    },
    write: async (name, bytes) => {
      let temp: string | undefined;
      try {
        check(name);
        await fs.mkdir(dir, { recursive: true });
        await cleanTemps(name);
        temp = join(dir, `${name}.${host}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
        const fh = await fs.open(temp, "wx", 0o644);
        try {
          for (let off = 0; off < bytes.length;)
            off += (await fh.write(bytes, off, Math.min(CHUNK, bytes.length - off), off)).bytesWritten;
          await fh.sync();
        } finally {
          await fh.close();
        }
        await fs.rename(temp, join(dir, name));
        temp = undefined;
        const d = await fs.open(dir, "r").catch(() => undefined);
        if (d !== undefined)
          await d
            .sync()
            .catch(() => undefined)
            .finally(() => d.close().catch(() => undefined));
        return E.right(undefined);
      } catch (e) {
        if (temp !== undefined) await fs.unlink(temp).catch(() => undefined);
        return E.left(snapshotFailure("write", name, e));
      }
    },
    open: async (name) => {
      let fh: fs.FileHandle | undefined;
      try {
        check(name);
        fh = await fs.open(join(dir, name), "r");
        const { size } = await fh.stat();
        const h = fh;
        let closing: Promise<void> | undefined;
        return E.right({
          size,
          readInto: async (offset, into) => {
            let got = 0;
            while (got < into.length) {
              const { bytesRead } = await h.read(into, got, into.length - got, offset + got);
              if (bytesRead === 0) break;
              got += bytesRead;
            }
            return got;
          },
          close: () => (closing ??= h.close().catch(() => undefined)),
        });
      } catch (e) {
        await fh?.close().catch(() => undefined);
        return codeOf(e) === "ENOENT" ? E.right(undefined) : E.left(snapshotFailure("read", name, e));
      }
    },
    remove: async (name) => {
      try {
        check(name);
        await fs.unlink(join(dir, name));
        return E.right(undefined);
      } catch (e) {
        return codeOf(e) === "ENOENT" ? E.right(undefined) : E.left(snapshotFailure("remove", name, e));
      }
    },
  };
}
