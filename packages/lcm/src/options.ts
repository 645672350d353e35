/**
 * Compaction options, their defaults and the io-ts codec that validates them at the boundary.
 *
 * @module options
 */
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { Strength } from "@cc/messages/internal";
import { decodeWith, invalid, leaf, nonNegativeInt, objectCodec, positiveInt, type InvalidOptions } from "@cc/validate";

/**
 * How and when to compact.
 *
 * @example
 * const options: CompactOptions = { ...defaultCompactOptions(), maxTokens: 8000, preserveLast: 6 };
 */
export interface CompactOptions {
  /**
   * The context window budget in tokens (positive integer).
   * @default 128000
   */
  readonly maxTokens: number;
  /**
   * Trailing messages kept verbatim (before the safe-split adjustment).
   * @default 20
   */
  readonly preserveLast: number;
  /**
   * The conversation's model (informational; used by adapters and token counting by model).
   * @default ""
   */
  readonly model: string;
  /**
   * Model for the summary calls; "" picks the cheapest model the provider lists.
   * @default ""
   */
  readonly compactionModel: string;
  /**
   * Usage fraction at which compaction is advised (`soft`). In (0, 1], below `hardThreshold`.
   * @default 0.5
   */
  readonly softThreshold: number;
  /**
   * Usage fraction at which compaction is required (`hard`). In (0, 1].
   * @default 0.95
   */
  readonly hardThreshold: number;
  /**
   * Minimum strength tier when picking the compaction model automatically.
   * @default none (the cheapest listed model)
   */
  readonly strength?: Strength;
  /**
   * Keep the task — the first user message — verbatim before the summary, unless it would take
   * more than half of `maxTokens` (then it is summarised with the rest and the result says so).
   * The context manager turns it on by default.
   * @default false
   */
  readonly pinTask: boolean;
}

/**
 * Defaults: maxTokens 128000, preserveLast 20, soft 0.5, hard 0.95, automatic compaction model.
 *
 * @example defaultCompactOptions().preserveLast // 20
 */
export function defaultCompactOptions(): CompactOptions {
  return {
    maxTokens: 128_000,
    preserveLast: 20,
    model: "",
    compactionModel: "",
    softThreshold: 0.5,
    hardThreshold: 0.95,
    pinTask: false,
  };
}

/** Options were rejected: the one failure shape of `@cc/validate`, subject "compact options" (or "compactor options"). */
export type { InvalidOptions } from "@cc/validate";

const fraction = leaf("Fraction", "a number in (0, 1]", (u): u is number => typeof u === "number" && u > 0 && u <= 1);
const StrengthCodec = leaf(
  "Strength",
  "one of very_low, low, average, high, very_high",
  (u): u is Strength => u === "very_low" || u === "low" || u === "average" || u === "high" || u === "very_high",
);

/**
 * io-ts codec of a partial {@link CompactOptions} (missing fields take defaults). Closed: an
 * unknown field is rejected with a "did you mean" suggestion, so a typo never passes silently.
 *
 * @example CompactOptionsInputCodec.decode({ maxTokns: 5 }) // failure: "maxTokns: unknown field (did you mean maxTokens?)"
 */
export const CompactOptionsInputCodec = objectCodec(
  "CompactOptions",
  {},
  {
    maxTokens: positiveInt,
    preserveLast: nonNegativeInt,
    model: t.string,
    compactionModel: t.string,
    softThreshold: fraction,
    hardThreshold: fraction,
    strength: StrengthCodec,
    pinTask: t.boolean,
  },
  { expected: "an options object" },
);

const decodeInput = decodeWith(CompactOptionsInputCodec, "InvalidOptions", "compact options");

/**
 * Validates `input` (merged over {@link defaultCompactOptions}); rejects unknown fields (with a
 * "did you mean"), soft ≥ hard, thresholds outside (0, 1], non-integer or negative counts, NaN
 * and infinities — naming each field.
 *
 * @example decodeCompactOptions({ maxTokns: 5 })
 * // left({ _tag: "InvalidOptions", subject: "compact options", problems: [{ path: "maxTokns", message: "maxTokns: unknown field (did you mean maxTokens?)" }], … })
 */
export function decodeCompactOptions(input: unknown): E.Either<InvalidOptions, CompactOptions> {
  const decoded = decodeInput(input);
  if (E.isLeft(decoded)) return decoded;
  const defined = Object.fromEntries(Object.entries(decoded.right).filter(([, v]) => v !== undefined));
  const merged = { ...defaultCompactOptions(), ...defined } as CompactOptions;
  if (merged.softThreshold >= merged.hardThreshold) {
    return E.left(
      invalid("InvalidOptions", "compact options", [
        {
          path: "softThreshold",
          field: "softThreshold",
          message: `softThreshold (${merged.softThreshold}) must be below hardThreshold (${merged.hardThreshold})`,
        },
      ]),
    );
  }
  return E.right(merged);
}
