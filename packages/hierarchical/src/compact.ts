/**
 * Hierarchical compaction: importance `compact`, then summarise every evicted segment and hand
 * the summary to a `SummaryWriter`, with bounded concurrency and an abort signal. Every evicted
 * segment ends up in exactly one bucket of the report: written, skipped or failed.
 *
 * @module compact
 */
import type {
  CompactResult,
  EvictionTarget,
  InvalidInput,
  InvalidOptions,
  ScoringOptions,
  Segment,
} from "@cc/importance";
import {
  compact,
  ensureSegmentsValid,
  readClock,
  validateEvictionTarget,
  validateImportanceOptions,
} from "@cc/importance";
import { decodeWith, fn, intIn, invalid, isRecord, leaf, objectCodec } from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";
import type * as TE from "fp-ts/lib/TaskEither.js";
import pLimit from "p-limit";
import { messageOf } from "@cc/search/internal";
import type { SummaryWriter, WriteError } from "./writer.js";

/** What a summariser may return: the summary, or `Either` a failure or the summary. */
export type SummaryResult = string | E.Either<unknown, string>;

/**
 * Produces a short summary of one evicted segment. Returning "" (or only whitespace) skips the
 * segment on purpose. Throws, rejections and `Left`s are caught and reported per segment.
 *
 * @example
 * const summarize: Summarizer = (segment) => segment.content.split("\n")[0] ?? "";
 */
export type Summarizer<S extends Segment = Segment> = (
  segment: S,
  context: { readonly signal: AbortSignal },
) => SummaryResult | Promise<SummaryResult>;

/**
 * Why one evicted segment was not written.
 *
 * @example
 * for (const f of result.failed) if (f.error._tag === "WriteFailed") console.warn(f.segment.id, f.error.error);
 */
export type SegmentFailure =
  | { readonly _tag: "SummarizeFailed"; readonly message: string; readonly cause: unknown }
  | { readonly _tag: "InvalidSummary"; readonly message: string }
  | { readonly _tag: "WriteFailed"; readonly error: WriteError }
  | { readonly _tag: "Aborted" }
  | { readonly _tag: "DuplicateId"; readonly firstPosition: number };

/**
 * What happened to one evicted segment. `position` is its index in `evict`; `id` of a written one
 * is the id the writer stored it under (the segment's id unless the writer named another).
 */
export type SegmentOutcome<S extends Segment> =
  | {
      readonly _tag: "Written";
      readonly segment: S;
      readonly position: number;
      readonly summary: string;
      readonly id: string;
    }
  | { readonly _tag: "Skipped"; readonly segment: S; readonly position: number; readonly reason: "EmptySummary" }
  | { readonly _tag: "Failed"; readonly segment: S; readonly position: number; readonly error: SegmentFailure };

/**
 * The compaction result plus what became of every evicted segment.
 *
 * @example
 * const r = await hierarchicalCompact(segments, { target: { maxTokens: 8000 }, scoring: { now: () => Date.now() }, summarize: extractiveSummarizer(), writer: indexWriter(index) })();
 * if (r._tag === "Right") console.log(r.right.written.length, "summaries written at", r.right.evictedAt);
 */
export interface HierarchicalResult<S extends Segment> extends CompactResult<S> {
  readonly written: readonly Extract<SegmentOutcome<S>, { _tag: "Written" }>[];
  readonly skipped: readonly Extract<SegmentOutcome<S>, { _tag: "Skipped" }>[];
  readonly failed: readonly Extract<SegmentOutcome<S>, { _tag: "Failed" }>[];
  /** True when the signal aborted before every summary was written. */
  readonly aborted: boolean;
  /** The pass's clock reading (epoch ms), given to writers as `evictedAt`. */
  readonly evictedAt: number;
}

/**
 * Everything `hierarchicalCompact` needs besides the segments. Decoded by a closed codec at the
 * boundary (subject "hierarchical compact options"): an unknown field gets a "did you mean",
 * functions and objects are checked by shape; `target` and `scoring` are then validated by
 * @cc/importance (subjects "eviction target" and "importance options").
 *
 * @example
 * const options: HierarchicalCompactOptions = {
 *   target: { maxTokens: 8000 }, scoring: { now: () => Date.now() },
 *   summarize: extractiveSummarizer(), writer: indexWriter(index), concurrency: 8, signal: AbortSignal.timeout(30_000),
 * };
 */
export interface HierarchicalCompactOptions<S extends Segment = Segment> {
  /** The budget to compact to (see @cc/importance `EvictionTarget`). */
  readonly target: EvictionTarget;
  /** Importance scoring options; the clock `now` is required (never replaced by `Date.now()`). */
  readonly scoring: ScoringOptions;
  /** Summarises one evicted segment. */
  readonly summarize: Summarizer<S>;
  /** Receives each non-empty summary. */
  readonly writer: SummaryWriter<S>;
  /**
   * Summaries in flight at once (integer 1..256).
   * @default 4
   */
  readonly concurrency?: number;
  /**
   * Stops starting new summaries; in-flight work sees the signal too.
   * @default none
   */
  readonly signal?: AbortSignal;
}

const Signal = leaf("AbortSignal", "an AbortSignal", (u): u is AbortSignal => u instanceof AbortSignal);
const Obj = leaf("Object", "an object", isRecord);
const Writer = leaf(
  "SummaryWriter",
  "a summary writer (an object with a writeSummary function)",
  (u): u is SummaryWriter<never> => isRecord(u) && typeof u["writeSummary"] === "function",
);
const decodeOptions = decodeWith(
  objectCodec(
    "HierarchicalCompactOptions",
    { target: Obj, scoring: Obj, summarize: fn, writer: Writer },
    { concurrency: intIn(1, 256), signal: Signal },
    { expected: "a hierarchical compact options object" },
  ),
  "InvalidOptions",
  "hierarchical compact options",
);

const isEither = (u: unknown): u is E.Either<unknown, unknown> =>
  typeof u === "object" && u !== null && "_tag" in u && (u._tag === "Left" || u._tag === "Right");

async function summarizeOne<S extends Segment>(
  summarize: Summarizer<S>,
  segment: S,
  signal: AbortSignal,
): Promise<E.Either<SegmentFailure, string>> {
  try {
    const raw: unknown = await summarize(segment, { signal });
    if (isEither(raw) && E.isLeft(raw))
      return E.left({ _tag: "SummarizeFailed", message: messageOf(raw.left), cause: raw.left });
    const value: unknown = isEither(raw) && E.isRight(raw) ? raw.right : raw;
    if (typeof value !== "string")
      return E.left({ _tag: "InvalidSummary", message: `expected a string summary, got ${typeof value}` });
    return E.right(value);
  } catch (e) {
    return E.left({ _tag: "SummarizeFailed", message: messageOf(e), cause: e });
  }
}

/** The id the summary was stored under, or why it was not. */
async function writeOne<S extends Segment>(
  writer: SummaryWriter<S>,
  segment: S,
  summary: string,
  evictedAt: number,
  signal: AbortSignal,
): Promise<E.Either<SegmentFailure, string>> {
  try {
    const r: E.Either<WriteError, unknown> = await writer.writeSummary(segment, summary, { evictedAt, signal })();
    if (E.isLeft(r)) return E.left({ _tag: "WriteFailed", error: r.left });
    // A writer written in plain JavaScript may return anything: only a string `id` names another id.
    const stored = r.right;
    return E.right(
      isRecord(stored) && typeof stored["id"] === "string" && stored["id"] !== "" ? stored["id"] : segment.id,
    );
  } catch (e) {
    return E.left({ _tag: "WriteFailed", error: { _tag: "WriterThrew", message: messageOf(e), cause: e } });
  }
}

/**
 * Every segment must be well formed (non-empty id, finite non-negative numbers); duplicate ids
 * are allowed, as in `compact` (identity is the position): the later duplicates are reported as
 * `DuplicateId` failures instead of silently overwriting the first one's entry.
 */
function segmentsValid(segments: readonly Segment[]): E.Either<InvalidInput, void> {
  const r = ensureSegmentsValid(segments);
  if (E.isRight(r)) return E.right(undefined);
  const problems = r.left.problems.filter((p) => !p.message.includes("duplicate id"));
  return problems.length === 0
    ? E.right(undefined)
    : E.left({ ...r.left, problems, message: problems.map((p) => p.message).join("; ") });
}

/**
 * Compacts `segments` to `options.target` with @cc/importance, then summarises each evicted
 * segment and writes the summary. Never rejects and never fails for summariser or writer
 * problems: those are reported per segment. `Left` only for invalid segments (`InvalidInput`), or
 * invalid options (`InvalidOptions`, subjects "hierarchical compact options" for the object
 * itself, "eviction target" and "importance options" — a missing, throwing or non-finite clock
 * included — for its `target` and `scoring`).
 *
 * @example
 * const r = await hierarchicalCompact(segments, {
 *   target: { maxTokens: 8000 }, scoring: { now: () => Date.now() },
 *   summarize: extractiveSummarizer(), writer: indexWriter(index), concurrency: 4,
 * })();
 * // r.right.written / skipped / failed
 */
export function hierarchicalCompact<S extends Segment>(
  segments: readonly S[],
  hierarchicalOptions: HierarchicalCompactOptions<S>,
): TE.TaskEither<InvalidInput | InvalidOptions, HierarchicalResult<S>> {
  return async () => {
    const decoded = decodeOptions(hierarchicalOptions);
    if (E.isLeft(decoded)) return decoded;
    const { target, scoring: options, summarize, writer } = hierarchicalOptions;
    const seg = segmentsValid(segments);
    if (E.isLeft(seg)) return seg;
    const t = validateEvictionTarget(target);
    if (E.isLeft(t)) return t;
    const o = validateImportanceOptions(options);
    if (E.isLeft(o)) return o;
    // The clock is required: a missing, throwing or non-finite one is refused, never replaced by Date.now().
    const clock = readClock(options.now);
    if (E.isLeft(clock))
      return E.left(
        invalid("InvalidOptions", "importance options", [
          {
            path: "now",
            field: "now",
            message: `now: ${clock.left.message.replace(/^clock: /, "").replace(/; the recency axis is left out$/, "")}`,
          },
        ]),
      );
    const evictedAt = clock.right;
    const fixedNow = (): number => evictedAt;
    const result = compact(segments, target, { ...options, now: fixedNow });
    const controller = new AbortController();
    const outer = hierarchicalOptions.signal;
    const onAbort = (): void => controller.abort(outer?.reason);
    if (outer?.aborted === true) onAbort();
    else outer?.addEventListener("abort", onAbort, { once: true });
    const signal = controller.signal;
    const limit = pLimit(hierarchicalOptions.concurrency ?? 4);
    const firstById = new Map<string, number>();

    const process = async (segment: S, position: number): Promise<SegmentOutcome<S>> => {
      const failed = (error: SegmentFailure): SegmentOutcome<S> => ({ _tag: "Failed", segment, position, error });
      const first = firstById.get(segment.id);
      if (first !== undefined && first !== position) return failed({ _tag: "DuplicateId", firstPosition: first });
      if (signal.aborted) return failed({ _tag: "Aborted" });
      const summary = await summarizeOne(summarize, segment, signal);
      if (E.isLeft(summary)) return failed(summary.left);
      if (summary.right.trim() === "") return { _tag: "Skipped", segment, position, reason: "EmptySummary" };
      if (signal.aborted) return failed({ _tag: "Aborted" });
      const stored = await writeOne(writer, segment, summary.right, evictedAt, signal);
      return E.isRight(stored)
        ? { _tag: "Written", segment, position, summary: summary.right, id: stored.right }
        : failed(stored.left);
    };

    result.evict.forEach((s, i) => {
      if (!firstById.has(s.id)) firstById.set(s.id, i);
    });
    try {
      const outcomes = await Promise.all(result.evict.map((s, i) => limit(() => process(s, i))));
      return E.right({
        ...result,
        written: outcomes.filter((x): x is Extract<SegmentOutcome<S>, { _tag: "Written" }> => x._tag === "Written"),
        skipped: outcomes.filter((x): x is Extract<SegmentOutcome<S>, { _tag: "Skipped" }> => x._tag === "Skipped"),
        failed: outcomes.filter((x): x is Extract<SegmentOutcome<S>, { _tag: "Failed" }> => x._tag === "Failed"),
        aborted: outcomes.some((x) => x._tag === "Failed" && x.error._tag === "Aborted"),
        evictedAt,
      });
    } finally {
      outer?.removeEventListener("abort", onAbort);
    }
  };
}
