/**
 * Where summaries of evicted segments go: the `SummaryWriter` interface, an adapter from a plain
 * function, and a writer that feeds a `SegmentIndex`.
 *
 * @module writer
 */
import type { Segment } from "@cc/importance";
import * as E from "fp-ts/lib/Either.js";
import type * as TE from "fp-ts/lib/TaskEither.js";
import type { IndexError, SegmentIndex } from "@cc/search";
import { DEFAULT_NAMESPACE, messageOf, type Json } from "@cc/search/internal";
import { decodeWith, fn, objectCodec } from "@cc/validate";
import * as t from "io-ts";

/** What a writer learns about the pass besides the segment and its summary. */
export interface WriteContext {
  /** When the pass evicted the segment (epoch ms, read once per pass). */
  readonly evictedAt: number;
  /** Aborted when the caller gives up on the pass. */
  readonly signal: AbortSignal;
}

/** Why a writer could not persist a summary. */
export type WriteError =
  | { readonly _tag: "WriterThrew"; readonly message: string; readonly cause: unknown }
  | { readonly _tag: "IndexWriteFailed"; readonly error: IndexError };

/** Where a writer stored a summary, when it says: `id` is the id it is stored under. */
export interface StoredAs {
  readonly id: string;
}

/**
 * Persists the summary of one evicted segment (the hook of hierarchical compaction).
 * Implementations return `Left` for failures; a writer that throws or rejects anyway is caught
 * and reported by `hierarchicalCompact`. `Right(undefined)` means stored under the segment's id;
 * `Right({ id })` names the id it was stored under (see `idConflicts` of {@link indexWriter}).
 *
 * @example
 * const journal = new Map<string, string>();
 * const writer: SummaryWriter = summaryWriterFunc((segment, summary) => { journal.set(segment.id, summary); });
 */
export interface SummaryWriter<S extends Segment = Segment> {
  writeSummary(segment: S, summary: string, context: WriteContext): TE.TaskEither<WriteError, StoredAs | undefined>;
}

/**
 * Adapts a plain (sync or async) function to {@link SummaryWriter}: a throw or rejection becomes
 * `Left<WriterThrew>`.
 *
 * @example
 * import { appendFile } from "node:fs/promises";
 * const writer = summaryWriterFunc(async (segment, summary) => { await appendFile("summaries.jsonl", JSON.stringify({ id: segment.id, summary }) + "\n"); });
 */
export function summaryWriterFunc<S extends Segment = Segment>(
  fn: (segment: S, summary: string, context: WriteContext) => void | Promise<void>,
): SummaryWriter<S> {
  return {
    writeSummary: (segment, summary, context) => async () => {
      try {
        await fn(segment, summary, context);
        return E.right(undefined);
      } catch (e) {
        return E.left({ _tag: "WriterThrew", message: messageOf(e), cause: e });
      }
    },
  };
}

/** Options of {@link indexWriter}. */
export interface IndexWriterOptions<S extends Segment> {
  /**
   * Namespace of every entry (session, agent or tenant).
   * @default "default"
   */
  readonly namespace?: string;
  /**
   * Kind when the segment has none.
   * @default "segment"
   */
  readonly defaultKind?: string;
  /**
   * Extra JSON metadata per segment (e.g. the turn number).
   * @default none
   */
  readonly metadata?: (segment: S) => { readonly [key: string]: Json };
  /**
   * What a write does when the index already holds a different original under the segment's
   * `(namespace, id)` (`IdConflict`): `"refuse"` fails it (the segment is reported failed);
   * `"disambiguate"` writes it under the first of {@link alternativeId}`(id, 1 … ID_ALTERNATIVES)`
   * that is free or already holds the same original (deterministic, so the same segment lands on
   * the same id in every pass and session), and fails with the first `IdConflict` only when all
   * of them are taken. The other original is never touched.
   * @default "refuse"
   */
  readonly idConflicts?: "refuse" | "disambiguate";
}

/** Alternatives {@link indexWriter} tries, with `idConflicts: "disambiguate"`, after a segment's own id. */
export const ID_ALTERNATIVES = 8;

/**
 * The `n`-th alternative of `id` (n ≥ 1): `id~n`. Content-addressed unit ids (`u` + hex, `.k`
 * for repeats, after an optional prefix) never end in `~n`, so an alternative never takes the
 * first-choice id of another unit.
 *
 * @example alternativeId("u3f…", 1) // "u3f…~1"
 */
export function alternativeId(id: string, n: number): string {
  return `${id}~${n}`;
}

const decodeWriterOptions = decodeWith(
  objectCodec(
    "IndexWriterOptions",
    {},
    {
      namespace: t.string,
      defaultKind: t.string,
      metadata: fn,
      idConflicts: t.keyof({ refuse: null, disambiguate: null }),
    },
    { expected: "an options object" },
  ),
  "InvalidOptions",
  "index writer options",
);

/**
 * A writer that stores each summary with its original in a `SegmentIndex`, so the agent can
 * search the summary and expand it back to the original.
 *
 * @example
 * const writer = indexWriter(index, { namespace: "session-42" });
 */
export function indexWriter<S extends Segment>(
  index: SegmentIndex,
  options: IndexWriterOptions<S> = {},
): SummaryWriter<S> {
  // Closed options: a typo or a bad value fails every write with Left(InvalidOptions), never a silent default.
  const checked = decodeWriterOptions(options);
  const namespace = options.namespace ?? DEFAULT_NAMESPACE;
  const defaultKind = options.defaultKind ?? "segment";
  return {
    writeSummary: (segment, summary, context) => async () => {
      if (E.isLeft(checked)) return E.left({ _tag: "IndexWriteFailed", error: checked.left });
      const entry = {
        id: segment.id,
        namespace,
        kind: segment.kind ?? defaultKind,
        summary,
        content: segment.content,
        tokenCost: segment.tokenCost ?? Math.ceil(segment.content.length / 4),
        createdAt: segment.createdAt ?? context.evictedAt,
        evictedAt: context.evictedAt,
        metadata: {
          ...(options.metadata === undefined ? {} : options.metadata(segment)),
          ...(segment.accessCount === undefined ? {} : { accessCount: segment.accessCount }),
          ...(segment.lastAccessed === undefined ? {} : { lastAccessed: segment.lastAccessed }),
        },
      };
      const tries = options.idConflicts === "disambiguate" ? ID_ALTERNATIVES : 0;
      let conflict: IndexError | undefined;
      for (let n = 0; n <= tries; n++) {
        const id = n === 0 ? segment.id : alternativeId(segment.id, n);
        const r = await index.write([{ ...entry, id }])();
        if (E.isRight(r)) return E.right({ id });
        if (r.left._tag !== "IdConflict") return E.left({ _tag: "IndexWriteFailed", error: r.left });
        conflict ??= r.left;
      }
      const error: IndexError =
        conflict?._tag === "IdConflict" && tries > 0
          ? {
              ...conflict,
              message: `id ${JSON.stringify(segment.id)} in namespace ${JSON.stringify(namespace)} and its ${tries} alternatives (${alternativeId(segment.id, 1)} … ${alternativeId(segment.id, tries)}) already hold different originals; nothing was written`,
            }
          : conflict!;
      return E.left({ _tag: "IndexWriteFailed", error });
    },
  };
}
