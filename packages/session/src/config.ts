/**
 * Configuration of session compaction, validated at the boundary with io-ts. Errors name the
 * field, say what is expected and why, and what was given — so a person can fix the config.
 *
 * @module session/config
 */
import * as E from "fp-ts/lib/Either.js";
import type { Either } from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { Strength } from "@cc/messages/internal";
import { strengthTiers } from "@cc/lcm/internal";
import type { SummaryFallback } from "./fallback.js";
import { errorPath } from "./report.js";

/** Validated session-compaction settings (defaults applied). */
export interface SessionCompactionConfig {
  /** Compact when the previous turn's input tokens reach this many. Required. */
  readonly thresholdTokens: number;
  /** Most recent messages kept verbatim, never summarised. Default 6. */
  readonly keepRecent: number;
  /** Minimum strength tier of the automatically chosen summary model. Optional. */
  readonly strength?: Strength;
  /** A fixed summary model; when absent the cheapest listed model of `strength` is used. */
  readonly model?: string;
  /** Sampling temperature of the summary call. Default 0.3 (faithful, low creativity). */
  readonly temperature: number;
  /**
   * Output budget of the summary call, in tokens. Default: 2048, or a quarter of the threshold
   * when that is smaller. Must stay below the threshold, or every turn would compact again.
   */
  readonly maxSummaryTokens: number;
  /** Abort the summary call after this many ms. Default: no timeout of our own. */
  readonly timeoutMs?: number;
  /**
   * What happens when the summariser fails (error, throw, timeout, no model) or returns an empty
   * summary. `truncate` (default): save a deterministic head+tail excerpt of the folded history
   * within `maxSummaryTokens`, so the context still shrinks. `none`: save nothing and report it.
   */
  readonly fallback: SummaryFallback;
}

/** Defaults applied to omitted optional fields (`maxSummaryTokens` is also capped at a quarter of the threshold). */
export const sessionConfigDefaults = { keepRecent: 6, temperature: 0.3, maxSummaryTokens: 2048, fallback: "truncate" } as const;

/** The configuration was rejected; `problems` has one actionable line per field. */
export interface InvalidSessionConfig {
  readonly _tag: "InvalidSessionConfig";
  readonly problems: readonly string[];
  readonly message: string;
}

const refined = (name: string, expectation: string, ok: (u: unknown) => boolean): t.Type<number, number, unknown> =>
  new t.Type<number, number, unknown>(
    name,
    (u): u is number => ok(u),
    (u, c) => (ok(u) ? t.success(u as number) : t.failure(u, c, expectation)),
    t.identity,
  );

const isInt = (u: unknown): u is number => typeof u === "number" && Number.isSafeInteger(u);

const Threshold = refined(
  "ThresholdTokens",
  "must be a whole number of tokens ≥ 1 — compaction starts when the previous turn's input reaches it (e.g. 30000 for a 32k model)",
  (u) => isInt(u) && u >= 1,
);
const KeepRecent = refined(
  "KeepRecent",
  "must be a whole number ≥ 1 — how many of the newest messages stay verbatim (default 6)",
  (u) => isInt(u) && u >= 1,
);
const Temperature = refined("Temperature", "must be a number from 0 to 2 (default 0.3)", (u) => typeof u === "number" && u >= 0 && u <= 2);
const MaxSummaryTokens = refined(
  "MaxSummaryTokens",
  "must be a whole number of tokens ≥ 16 — the output budget of the summary (default 2048)",
  (u) => isInt(u) && u >= 16,
);
const TimeoutMs = refined("TimeoutMs", "must be a whole number of milliseconds ≥ 1", (u) => isInt(u) && u >= 1);
const ModelName = new t.Type<string, string, unknown>(
  "ModelName",
  (u): u is string => typeof u === "string" && u.trim() !== "",
  (u, c) => (typeof u === "string" && u.trim() !== "" ? t.success(u) : t.failure(u, c, "must be a non-empty model id")),
  t.identity,
);
const fallbacks: readonly SummaryFallback[] = ["none", "truncate"];
const FallbackCodec = new t.Type<SummaryFallback, SummaryFallback, unknown>(
  "SummaryFallback",
  (u): u is SummaryFallback => fallbacks.includes(u as SummaryFallback),
  (u, c) =>
    fallbacks.includes(u as SummaryFallback)
      ? t.success(u as SummaryFallback)
      : t.failure(u, c, `must be "truncate" (save a head+tail excerpt when the summariser fails; the default) or "none" (save nothing)`),
  t.identity,
);
const StrengthCodec = new t.Type<Strength, Strength, unknown>(
  "Strength",
  (u): u is Strength => strengthTiers.includes(u as Strength),
  (u, c) => (strengthTiers.includes(u as Strength) ? t.success(u as Strength) : t.failure(u, c, `must be one of ${strengthTiers.join(", ")}`)),
  t.identity,
);

/** io-ts codec of the raw configuration (before defaults). */
export const SessionCompactionConfigCodec = t.intersection([
  t.type({ thresholdTokens: Threshold }),
  t.partial({
    keepRecent: KeepRecent,
    strength: StrengthCodec,
    model: ModelName,
    temperature: Temperature,
    maxSummaryTokens: MaxSummaryTokens,
    timeoutMs: TimeoutMs,
    fallback: FallbackCodec,
  }),
]);

const knownKeys = ["thresholdTokens", "keepRecent", "strength", "model", "temperature", "maxSummaryTokens", "timeoutMs", "fallback"];

const normalise = (key: string): string => key.replace(/[_-]/g, "").toLowerCase();

const show = (u: unknown): string => (u === undefined ? "nothing" : typeof u === "string" ? JSON.stringify(u) : typeof u === "object" && u !== null ? "an object" : String(u));

/**
 * Validates a configuration object and applies defaults.
 *
 * @example
 * decodeSessionConfig({ thresholdTokens: 30000 }); // right({ thresholdTokens: 30000, keepRecent: 6, … })
 * decodeSessionConfig({ keepRecent: 6 });
 * // left: "compaction.thresholdTokens is required: must be a whole number of tokens ≥ 1 — …"
 */
export function decodeSessionConfig(input: unknown, root = "compaction"): Either<InvalidSessionConfig, SessionCompactionConfig> {
  const problems: string[] = [];
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    problems.push(`${root} must be an object such as { thresholdTokens: 30000 }, got ${Array.isArray(input) ? "an array" : show(input)}`);
  } else {
    for (const key of Object.keys(input)) {
      if (knownKeys.includes(key)) continue;
      const near = knownKeys.find((k) => normalise(k) === normalise(key));
      problems.push(`${root}.${key} is not a setting${near === undefined ? ` (known: ${knownKeys.join(", ")})` : `; did you mean ${near}?`}`);
    }
    const decoded = SessionCompactionConfigCodec.decode(input);
    if (E.isLeft(decoded)) {
      const seen = new Set<string>();
      for (const error of decoded.left) {
        const path = errorPath(error, root);
        if (seen.has(path)) continue;
        seen.add(path);
        const expectation = error.message ?? "is invalid";
        problems.push(error.value === undefined ? `${path} is required: ${expectation}` : `${path} ${expectation}, got ${show(error.value)}`);
      }
    } else if (decoded.right.maxSummaryTokens !== undefined && decoded.right.maxSummaryTokens >= decoded.right.thresholdTokens) {
      problems.push(
        `${root}.maxSummaryTokens (${decoded.right.maxSummaryTokens}) must be below ${root}.thresholdTokens (${decoded.right.thresholdTokens}); a summary that large would trigger compaction again on every turn`,
      );
    } else if (problems.length === 0) {
      const raw = decoded.right;
      return E.right({
        thresholdTokens: raw.thresholdTokens,
        keepRecent: raw.keepRecent ?? sessionConfigDefaults.keepRecent,
        temperature: raw.temperature ?? sessionConfigDefaults.temperature,
        fallback: raw.fallback ?? sessionConfigDefaults.fallback,
        maxSummaryTokens: raw.maxSummaryTokens ?? Math.max(16, Math.min(sessionConfigDefaults.maxSummaryTokens, Math.floor(raw.thresholdTokens / 4))),
        ...(raw.strength === undefined ? {} : { strength: raw.strength }),
        ...(raw.model === undefined ? {} : { model: raw.model }),
        ...(raw.timeoutMs === undefined ? {} : { timeoutMs: raw.timeoutMs }),
      });
    }
  }
  return E.left({ _tag: "InvalidSessionConfig", problems, message: problems.join("\n") });
}
