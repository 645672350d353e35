/**
 * Compaction options, their defaults and the io-ts codec that validates them at the boundary.
 *
 * @module options
 */
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { Strength } from "@cc/messages";

/** How and when to compact. */
export interface CompactOptions {
  /** The context window budget in tokens (positive integer). */
  readonly maxTokens: number;
  /** Trailing messages kept verbatim (before the safe-split adjustment). */
  readonly preserveLast: number;
  /** The conversation's model (informational; used by adapters and token counting by model). */
  readonly model: string;
  /** Model for the summary calls; "" picks the cheapest model the provider lists. */
  readonly compactionModel: string;
  /** Usage fraction at which compaction is advised (`soft`). In (0, 1], below `hardThreshold`. */
  readonly softThreshold: number;
  /** Usage fraction at which compaction is required (`hard`). In (0, 1]. */
  readonly hardThreshold: number;
  /** Minimum strength tier when picking the compaction model automatically. */
  readonly strength?: Strength;
}

/** Defaults: maxTokens 128000, preserveLast 20, soft 0.5, hard 0.95, automatic compaction model. */
export function defaultCompactOptions(): CompactOptions {
  return { maxTokens: 128_000, preserveLast: 20, model: "", compactionModel: "", softThreshold: 0.5, hardThreshold: 0.95 };
}

/** Options were rejected; `problems` names each field. */
export interface InvalidOptions {
  readonly _tag: "InvalidOptions";
  readonly problems: readonly string[];
}

const positiveInt = new t.Type<number, number, unknown>(
  "PositiveInteger",
  (u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u > 0,
  (u, c) => (typeof u === "number" && Number.isSafeInteger(u) && u > 0 ? t.success(u) : t.failure(u, c, "expected a positive integer")),
  t.identity,
);
const nonNegativeInt = new t.Type<number, number, unknown>(
  "NonNegativeInteger",
  (u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 0,
  (u, c) => (typeof u === "number" && Number.isSafeInteger(u) && u >= 0 ? t.success(u) : t.failure(u, c, "expected a non-negative integer")),
  t.identity,
);
const fraction = new t.Type<number, number, unknown>(
  "Fraction",
  (u): u is number => typeof u === "number" && u > 0 && u <= 1,
  (u, c) => (typeof u === "number" && u > 0 && u <= 1 ? t.success(u) : t.failure(u, c, "expected a number in (0, 1]")),
  t.identity,
);
const StrengthCodec = t.keyof({ very_low: null, low: null, average: null, high: null, very_high: null });

/** io-ts codec of a partial {@link CompactOptions} (missing fields take defaults). */
export const CompactOptionsInputCodec = t.partial({
  maxTokens: positiveInt,
  preserveLast: nonNegativeInt,
  model: t.string,
  compactionModel: t.string,
  softThreshold: fraction,
  hardThreshold: fraction,
  strength: StrengthCodec,
});

function show(u: unknown): string {
  if (typeof u === "number") return String(u);
  try {
    return JSON.stringify(u) ?? String(u);
  } catch {
    return typeof u;
  }
}

/**
 * Validates `input` (merged over {@link defaultCompactOptions}); rejects soft ≥ hard, thresholds
 * outside (0, 1], non-integer or negative counts, NaN and infinities — naming each field.
 *
 * @example decodeCompactOptions({ softThreshold: 0.9, hardThreshold: 0.8 })
 * // left({ _tag: "InvalidOptions", problems: ["softThreshold (0.9) must be below hardThreshold (0.8)"] })
 */
export function decodeCompactOptions(input: unknown): E.Either<InvalidOptions, CompactOptions> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return E.left({ _tag: "InvalidOptions", problems: [`options: expected an object, got ${show(input)}`] });
  }
  const decoded = CompactOptionsInputCodec.decode(input);
  if (E.isLeft(decoded)) {
    const problems = decoded.left.map((e) => {
      const field = e.context[e.context.length - 1]?.key ?? "options";
      return `${field}: ${e.message ?? "invalid value"}, got ${show(e.value)}`;
    });
    return E.left({ _tag: "InvalidOptions", problems: [...new Set(problems)] });
  }
  const defined = Object.fromEntries(Object.entries(decoded.right).filter(([, v]) => v !== undefined));
  const merged = { ...defaultCompactOptions(), ...defined } as CompactOptions;
  if (merged.softThreshold >= merged.hardThreshold) {
    return E.left({
      _tag: "InvalidOptions",
      problems: [`softThreshold (${merged.softThreshold}) must be below hardThreshold (${merged.hardThreshold})`],
    });
  }
  return E.right(merged);
}
