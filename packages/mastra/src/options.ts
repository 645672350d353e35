/**
 * Options of the Mastra compaction processor, decoded at the boundary by a closed codec: the
 * adapter's own settings here, the context manager's settings by `@cc/context` (unknown keys get a
 * "did you mean", NaN, ±Infinity and out-of-range values are refused).
 *
 * @module options
 */
import { ContextManagerOptionsCodec, type ContextManagerOptions } from "@cc/context";
import { callback, decodeWith, intIn, nonEmptyString, objectCodec, type InvalidOptions } from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";
import type { CompactionReport } from "./report.js";

/**
 * Options of {@link createCompactionProcessor}: the context manager's options (only `maxTokens`
 * is required; see `ContextManagerOptions` of `@cc/context`) plus the adapter's own.
 *
 * @example
 * const options: CompactionProcessorOptions = { maxTokens: 8000, toolResultMaxTokens: 1500, namespace: "thread-42" };
 */
export interface CompactionProcessorOptions extends ContextManagerOptions {
  /**
   * The processor's id in Mastra's processor chain.
   * @default "cc-compaction"
   */
  readonly id?: string;
  /**
   * A tool result larger than this (tokens, by the manager's counter) is written to the index
   * as it arrives and replaced by a pointer the agent can expand (`processToolResult`); 0 turns
   * this off.
   * @default 2000
   */
  readonly toolResultMaxTokens?: number;
  /**
   * Largest page `expand_context` returns, in UTF-16 code units (1..10 000 000).
   * @default 8000
   */
  readonly maxExpandChars?: number;
  /**
   * Called after every hook that changed something (and with every failure). A callback that
   * throws or rejects never breaks a run: the failure is added to the report's warnings
   * (`CallbackFailed`) and kept as the processor's `lastReport`.
   */
  readonly onCompaction?: (report: CompactionReport) => void | Promise<void>;
}

/** The context manager's option names, taken from its codec (so none is ever missing here, `policy` included). */
const CONTEXT_KEYS = [
  ...Object.keys(ContextManagerOptionsCodec.required),
  ...Object.keys(ContextManagerOptionsCodec.optional),
] as readonly (keyof ContextManagerOptions)[];
/** The callback, typed as the option's (a function; its signature cannot be checked at run time). */
const onCompaction = callback<NonNullable<CompactionProcessorOptions["onCompaction"]>>();
const own = {
  id: nonEmptyString,
  toolResultMaxTokens: intIn(0, 100_000_000),
  maxExpandChars: intIn(1, 10_000_000),
  onCompaction,
};

/**
 * io-ts codec of {@link CompactionProcessorOptions} (closed): the context manager's fields, checked by
 * its codec's own field codecs, and the adapter's.
 *
 * @example CompactionProcessorOptionsCodec.is({ maxTokens: 8000, policy: { kind: "cost" } }) // true
 */
export const CompactionProcessorOptionsCodec = objectCodec(
  "CompactionProcessorOptions",
  ContextManagerOptionsCodec.required,
  { ...ContextManagerOptionsCodec.optional, ...own },
  { expected: "an options object" },
);

/**
 * {@link CompactionProcessorOptions} split into the context manager's part and the adapter's, defaults filled in.
 *
 * @example createCompactionProcessor({ maxTokens: 8000 }).settings.toolResultMaxTokens // 2000
 */
export interface DecodedOptions {
  readonly context: ContextManagerOptions;
  readonly id: string;
  readonly toolResultMaxTokens: number;
  readonly maxExpandChars: number;
  readonly onCompaction?: (report: CompactionReport) => void | Promise<void>;
}

/**
 * Decodes the processor's options; `Left<InvalidOptions>` (subject "mastra compaction options")
 * names every bad field.
 *
 * @example
 * decodeCompactionProcessorOptions({ maxTokens: 8000, toolResultMaxToken: 500 });
 * // left: "… toolResultMaxToken: unknown field (did you mean toolResultMaxTokens?)"
 */
export function decodeCompactionProcessorOptions(input: unknown): E.Either<InvalidOptions, DecodedOptions> {
  const subject = "mastra compaction options";
  const shape = decodeWith(CompactionProcessorOptionsCodec, "InvalidOptions", subject)(input);
  if (E.isLeft(shape)) return shape;
  const o: CompactionProcessorOptions = shape.right;
  const context = Object.fromEntries(
    CONTEXT_KEYS.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]),
  ) as unknown as ContextManagerOptions;
  return E.right({
    context,
    id: o.id ?? "cc-compaction",
    toolResultMaxTokens: o.toolResultMaxTokens ?? 2000,
    maxExpandChars: o.maxExpandChars ?? 8000,
    ...(o.onCompaction === undefined ? {} : { onCompaction: o.onCompaction }),
  });
}
