/**
 * Configuration of session compaction, validated at the boundary with a closed io-ts codec. A
 * failure is the `InvalidOptions` of @cc/validate: each problem names the field, says what is
 * expected and why, and what was given — so a person can fix the config.
 *
 * @module session/config
 */
import { tokensReaching } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import type { Either } from "fp-ts/lib/Either.js";
import type * as t from "io-ts";
import type { Strength } from "@cc/messages/internal";
import { strengthTiers } from "@cc/lcm/internal";
import type { SummaryFallback } from "./fallback.js";
import { decodeWith, invalid, leaf, numberIn, objectCodec, type InvalidOptions } from "@cc/validate";

const isInt = (u: unknown): u is number => typeof u === "number" && Number.isSafeInteger(u);

/**
 * Validated session-compaction settings (defaults applied). The vocabulary is the core's:
 * `maxTokens` is the budget (the model's input window), `threshold` the share of it at which
 * compaction starts, `preserveLast` the verbatim tail.
 *
 * @example
 * const config = decodeSessionConfig({ maxTokens: 32000, threshold: 0.9, preserveLast: 8 });
 * // right({ maxTokens: 32000, threshold: 0.9, preserveLast: 8, temperature: 0.3, maxSummaryTokens: 2048, fallback: "truncate" })
 */
export interface SessionCompactionConfig {
  /** The input budget of the model, in tokens (e.g. 32000 for a 32k model). Required. */
  readonly maxTokens: number;
  /**
   * Compact when the previous turn's input tokens reach this share of `maxTokens`, in (0, 1].
   * @default 0.8
   */
  readonly threshold: number;
  /**
   * Most recent messages kept verbatim, never summarised.
   * @default 6
   */
  readonly preserveLast: number;
  /** Minimum strength tier of the automatically chosen summary model. Optional. */
  readonly strength?: Strength;
  /** A fixed summary model; when absent the cheapest listed model of `strength` is used. */
  readonly model?: string;
  /**
   * Sampling temperature of the summary call (faithful, low creativity).
   * @default 0.3
   */
  readonly temperature: number;
  /**
   * Output budget of the summary call, in tokens. Must stay below the trigger
   * (`threshold × maxTokens`), or every turn would compact again.
   * @default 2048, or a quarter of the trigger when that is smaller (at least 16)
   */
  readonly maxSummaryTokens: number;
  /**
   * Abort the summary call after this many ms.
   * @default no timeout of our own
   */
  readonly timeoutMs?: number;
  /**
   * What happens when the summariser fails (error, throw, timeout, no model) or returns an empty
   * summary. `truncate`: save a deterministic head+tail excerpt of the folded history within
   * `maxSummaryTokens`, so the context still shrinks. `none`: save nothing and report it.
   * @default "truncate"
   */
  readonly fallback: SummaryFallback;
}

/**
 * Defaults applied to omitted optional fields (`maxSummaryTokens` is also capped at a quarter of
 * the trigger).
 *
 * @example sessionConfigDefaults.preserveLast // 6
 */
export const sessionConfigDefaults = {
  threshold: 0.8,
  preserveLast: 6,
  temperature: 0.3,
  maxSummaryTokens: 2048,
  fallback: "truncate",
} as const;

/** The configuration was rejected; each problem names the field, what is expected and what was given. */
export type InvalidSessionConfig = InvalidOptions;

/** The token count at which compaction starts: `threshold × maxTokens`, at least 1. Pure. */
export const triggerTokens = (config: Pick<SessionCompactionConfig, "maxTokens" | "threshold">): number =>
  tokensReaching(config.threshold, config.maxTokens);

const fallbacks: readonly SummaryFallback[] = ["none", "truncate"];

/** io-ts codec of the raw configuration (before defaults): closed, so a typo is named. */
export const SessionCompactionConfigCodec = objectCodec(
  "SessionCompactionConfig",
  {
    maxTokens: leaf(
      "MaxTokens",
      "a whole number of tokens ≥ 1 — the model's input budget (e.g. 32000)",
      (u): u is number => isInt(u) && u >= 1,
    ),
  },
  {
    threshold: leaf(
      "Threshold",
      "a number in (0, 1] — the share of maxTokens at which compaction starts (default 0.8)",
      (u): u is number => typeof u === "number" && u > 0 && u <= 1,
    ),
    preserveLast: leaf(
      "PreserveLast",
      "a whole number ≥ 1 — how many of the newest messages stay verbatim (default 6)",
      (u): u is number => isInt(u) && u >= 1,
    ),
    strength: leaf("Strength", `one of ${strengthTiers.join(", ")}`, (u): u is Strength =>
      strengthTiers.includes(u as Strength),
    ),
    model: leaf("ModelName", "a non-empty model id", (u): u is string => typeof u === "string" && u.trim() !== ""),
    temperature: numberIn(0, 2),
    maxSummaryTokens: leaf(
      "MaxSummaryTokens",
      "a whole number of tokens ≥ 16 — the output budget of the summary (default 2048)",
      (u): u is number => isInt(u) && u >= 16,
    ),
    timeoutMs: leaf("TimeoutMs", "a whole number of milliseconds ≥ 1", (u): u is number => isInt(u) && u >= 1),
    fallback: leaf(
      "SummaryFallback",
      `"truncate" (save a head+tail excerpt when the summariser fails; the default) or "none" (save nothing)`,
      (u): u is SummaryFallback => fallbacks.includes(u as SummaryFallback),
    ),
  },
  { expected: "an object such as { maxTokens: 32000 }" },
);

const decodeRaw = decodeWith(SessionCompactionConfigCodec, "InvalidOptions", "session compaction config");

/**
 * Validates a configuration object and applies defaults. Unknown keys are refused with a
 * "did you mean"; NaN, ±Infinity, fractions and out-of-range values are refused by name.
 *
 * @example
 * decodeSessionConfig({ maxTokens: 32000 }); // right({ maxTokens: 32000, threshold: 0.8, preserveLast: 6, … })
 * decodeSessionConfig({ maxTokens: 32000, preserveLst: 6 });
 * // left({ _tag: "InvalidOptions", problems: [{ path: "preserveLst", message: "preserveLst: unknown field (did you mean preserveLast?)" }], … })
 */
export function decodeSessionConfig(input: unknown): Either<InvalidSessionConfig, SessionCompactionConfig> {
  return E.chain(
    (raw: t.TypeOf<typeof SessionCompactionConfigCodec>): Either<InvalidSessionConfig, SessionCompactionConfig> => {
      const threshold = raw.threshold ?? sessionConfigDefaults.threshold;
      const trigger = triggerTokens({ maxTokens: raw.maxTokens, threshold });
      if (raw.maxSummaryTokens !== undefined && raw.maxSummaryTokens >= trigger) {
        return E.left(
          invalid("InvalidOptions", "session compaction config", [
            {
              path: "maxSummaryTokens",
              field: "maxSummaryTokens",
              message: `maxSummaryTokens: ${raw.maxSummaryTokens} must be below the trigger threshold × maxTokens (${trigger}); a summary that large would trigger compaction again on every turn`,
            },
          ]),
        );
      }
      return E.right({
        maxTokens: raw.maxTokens,
        threshold,
        preserveLast: raw.preserveLast ?? sessionConfigDefaults.preserveLast,
        temperature: raw.temperature ?? sessionConfigDefaults.temperature,
        fallback: raw.fallback ?? sessionConfigDefaults.fallback,
        maxSummaryTokens:
          raw.maxSummaryTokens ??
          Math.max(16, Math.min(sessionConfigDefaults.maxSummaryTokens, Math.floor(trigger / 4))),
        ...(raw.strength === undefined ? {} : { strength: raw.strength }),
        ...(raw.model === undefined ? {} : { model: raw.model }),
        ...(raw.timeoutMs === undefined ? {} : { timeoutMs: raw.timeoutMs }),
      });
    },
  )(decodeRaw(input));
}
