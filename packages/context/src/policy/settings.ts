/**
 * Settings of a compaction policy, decoded at the boundary (closed codec: unknown keys, NaN,
 * ±Infinity and out-of-range values are rejected with `InvalidOptions`).
 *
 * @module policy/settings
 */
import {
  decodeWith,
  intIn,
  invalid,
  leaf,
  nonNegativeInt,
  numberIn,
  objectCodec,
  type InvalidOptions,
} from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { DEFAULT_PRICE_SHEET, PRICE_SHEETS, type PriceSheet, type PriceSheetName } from "./prices.js";

/** The policies a context manager can run. */
export const POLICY_KINDS = ["threshold", "hermes", "cost"] as const;

/**
 * `threshold`: compact whenever the prompt reaches the trigger (the manager's `threshold`), down to
 * just under it — the manager without a policy. `hermes`: anti-thrash — skip a compaction that saves
 * less than `minSavedTokens` / `minSavedShare`, back off (grow the trigger) after a poor one, none
 * within `minTurnsBetween` turns, and cut down to `target` (hysteresis). `cost`: the prompt-cache
 * cost model ({@link costVerdict}) picks when (between its centre and the hard threshold) and how far
 * down (never below `target`) — with caching on it waits and cuts once, with caching off it
 * keeps the prompt at its centre; its mean prompt is `cycleCentre` (the cost/retention trade-off); its
 * minimum saving and interval are economic, so those settings are floors (default 0) and it needs
 * no back-off.
 */
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** Options of a compaction policy (the context manager's `policy` option). Only `kind` is required. */
export interface PolicyOptions {
  readonly kind: PolicyKind;
  /**
   * Share of `maxTokens` at or above which a compaction always runs (no skip, no wait). In (0, 1].
   * @default 0.95
   */
  readonly hardThreshold?: number;
  /**
   * Share of `maxTokens` a compaction brings the prompt down to: `hermes` cuts to it (hysteresis:
   * well below the trigger, so several turns fit before the next one), `cost` never below it
   * (a floor under its cycle). At most the manager's `threshold`; `threshold` ignores it.
   * @default 0.5 (or the manager's `threshold` when lower)
   */
  readonly target?: number;
  /**
   * `cost` only: share of `maxTokens` the prompt holds on average — the centre of the cost model's
   * compaction cycle, the trade-off between cost and retention. The model minimises the rewrites
   * around it: with caching on it waits up to `hardThreshold` and cuts as far below the centre;
   * with caching off it keeps the prompt at the centre (it compacts from the centre on, not
   * from the manager's `threshold`). Lower: cheaper on both kinds of
   * price sheet and fewer re-accessed messages kept. Between `target` and the manager's `threshold`.
   * The default depends on the kind of price sheet ({@link defaultCycleCentre}): it was chosen on
   * the development split of bench/cost.bench.ts (bench/README.md, "Cost benchmark") — with prompt
   * caching {@link DEFAULT_CYCLE_CENTRES}`.withCaching`, without it `.withoutCaching` — clamped to
   * [`target`, `threshold`]. A value given here overrides it.
   * @default 0.7 with prompt caching (the default sheet), 0.66 without
   */
  readonly cycleCentre?: number;
  /**
   * A compaction that would save fewer tokens than this is skipped (below the hard threshold).
   * @default 1024 (`hermes`); 0 (`cost`)
   */
  readonly minSavedTokens?: number;
  /**
   * A compaction that would save less than this share of the prompt is skipped. In [0, 1).
   * @default 0.1
   */
  readonly minSavedShare?: number;
  /**
   * A compaction that saved less than this share of the prompt grows the trigger by `backoffStep`
   * (until one saves more). In [0, 1].
   * @default 0.25
   */
  readonly lowSavingShare?: number;
  /**
   * Share of `maxTokens` the trigger grows by after a poor or skipped compaction (capped at the hard threshold). In [0, 1].
   * @default 0.05
   */
  readonly backoffStep?: number;
  /**
   * No second compaction within this many turns of the last one, unless the hard threshold is reached.
   * @default 3 (`hermes`); 0 (`cost`)
   */
  readonly minTurnsBetween?: number;
  /**
   * Turns the session is expected to run after this one; absent: as many as it has run so far (at least `minTurnsBetween`).
   * @default estimated
   */
  readonly remainingTurns?: number;
  /**
   * Prices the cost model weighs: a {@link PRICE_SHEETS} name or your own sheet.
   * @default "anthropic/claude-sonnet-4"
   */
  readonly prices?: PriceSheetName | PriceSheet;
  /**
   * Turns without LLM summaries after a summariser failure (truncation keeps the budget meanwhile).
   * @default 5
   */
  readonly cooldownTurns?: number;
  /**
   * Tokens an LLM summary is expected to write (the cost model's summariser cost).
   * @default 1024
   */
  readonly summaryOutputTokens?: number;
}

/** {@link PolicyOptions} with every default filled in and the price sheet resolved. */
export interface PolicySettings {
  readonly kind: PolicyKind;
  readonly trigger: number;
  readonly hardThreshold: number;
  readonly target: number;
  /** The cost model's mean prompt (share of `maxTokens`); the trigger for the other kinds. */
  readonly cycleCentre: number;
  readonly minSavedTokens: number;
  readonly minSavedShare: number;
  readonly lowSavingShare: number;
  readonly backoffStep: number;
  readonly minTurnsBetween: number;
  readonly remainingTurns: number | undefined;
  readonly prices: PriceSheet;
  readonly cooldownTurns: number;
  readonly summaryOutputTokens: number;
}

const price = numberIn(0, 1_000_000);
const PriceSheetCodec = objectCodec(
  "PriceSheet",
  { input: price, cachedInput: price, cacheWrite: price, output: price },
  {},
  { expected: "a price sheet" },
);
const sheetName = leaf(
  "PriceSheetName",
  `one of ${Object.keys(PRICE_SHEETS).join(", ")}`,
  (u): u is PriceSheetName => typeof u === "string" && Object.hasOwn(PRICE_SHEETS, u),
);
const share = leaf("Share", "a number in (0, 1]", (u): u is number => typeof u === "number" && u > 0 && u <= 1);

/** io-ts codec of {@link PolicyOptions} (closed). */
export const PolicyOptionsCodec = objectCodec(
  "PolicyOptions",
  { kind: t.keyof({ threshold: null, hermes: null, cost: null }) },
  {
    hardThreshold: share,
    target: share,
    cycleCentre: share,
    minSavedTokens: nonNegativeInt,
    minSavedShare: leaf(
      "ShareBelowOne",
      "a number in [0, 1)",
      (u): u is number => typeof u === "number" && u >= 0 && u < 1,
    ),
    lowSavingShare: numberIn(0, 1),
    backoffStep: numberIn(0, 1),
    minTurnsBetween: intIn(0, 1_000_000),
    remainingTurns: intIn(0, 100_000_000),
    prices: t.union([sheetName, PriceSheetCodec]),
    cooldownTurns: intIn(0, 1_000_000),
    summaryOutputTokens: intIn(0, 10_000_000),
  },
  { expected: "a policy object" },
);

/**
 * The cost model's default mean prompt (see `cycleCentre`), as a share of `maxTokens`, per kind of
 * price sheet — the cost model is told its sheet, and with caching on the rewrite cost dominates,
 * with caching off there is none. Each is the choice of the rule written in bench/README.md
 * ("Cost benchmark") before it was applied: on the development split of bench/cost.bench.ts
 * (46 transcripts, budgets of 4,000, 8,000 and 16,000 tokens pooled, grid 0.6–0.8), the highest
 * centre at which the cost model costs no more than `threshold`, `hermes` and tool-result clearing
 * (Claude Sonnet 4's sheet, with and without caching). With caching 0.7 was 1.4% cheaper than the
 * cheapest rival (0.75 was dearer); without caching 0.66 was 0.6% cheaper (0.68 was dearer).
 *
 * @example DEFAULT_CYCLE_CENTRES.withCaching // 0.7
 */
export const DEFAULT_CYCLE_CENTRES = { withCaching: 0.7, withoutCaching: 0.66 } as const;

/** The default `cycleCentre` of a sheet with prompt caching, as the default sheet has ({@link DEFAULT_CYCLE_CENTRES}). */
export const DEFAULT_CYCLE_CENTRE: number = DEFAULT_CYCLE_CENTRES.withCaching;

/**
 * Whether a sheet has prompt caching: a cache hit costs less than uncached input.
 *
 * @example
 * import { withoutCaching } from "./prices.js";
 * hasPromptCaching(withoutCaching(PRICE_SHEETS["openai/gpt-4.1"])) // false
 */
export function hasPromptCaching(sheet: PriceSheet): boolean {
  return sheet.cachedInput < sheet.input;
}

/**
 * The default `cycleCentre` for a sheet (before the clamp to [`target`, `threshold`]).
 *
 * @example defaultCycleCentre(PRICE_SHEETS["anthropic/claude-sonnet-4"]) // DEFAULT_CYCLE_CENTRES.withCaching
 */
export function defaultCycleCentre(sheet: PriceSheet): number {
  return hasPromptCaching(sheet) ? DEFAULT_CYCLE_CENTRES.withCaching : DEFAULT_CYCLE_CENTRES.withoutCaching;
}

const decodeOptions = decodeWith(PolicyOptionsCodec, "InvalidOptions", "policy options") as (
  u: unknown,
) => E.Either<InvalidOptions, PolicyOptions>;

/**
 * Decodes policy options against the manager's `threshold` (the trigger) and resolves defaults.
 * `target ≤ threshold ≤ hardThreshold` is required.
 *
 * @example decodePolicy({ kind: "cost", prices: "openai/gpt-4.1" }, 0.8) // right({ kind: "cost", trigger: 0.8, target: 0.5, … })
 */
export function decodePolicy(input: unknown, trigger: number): E.Either<InvalidOptions, PolicySettings> {
  const d = decodeOptions(input);
  if (E.isLeft(d)) return d;
  const o = d.right;
  const hardThreshold = o.hardThreshold ?? Math.max(0.95, trigger);
  const cost = o.kind === "cost";
  const target = o.kind === "threshold" ? trigger : (o.target ?? Math.min(0.5, trigger));
  const named = o.prices ?? DEFAULT_PRICE_SHEET;
  const prices = typeof named === "string" ? PRICE_SHEETS[named] : named;
  const cycleCentre = cost
    ? (o.cycleCentre ?? Math.min(trigger, Math.max(target, defaultCycleCentre(prices))))
    : trigger;
  const problems: string[] = [];
  if (hardThreshold < trigger)
    problems.push(`hardThreshold: expected at least the manager's threshold ${trigger}, got ${hardThreshold}`);
  if (target > trigger) problems.push(`target: expected at most the manager's threshold ${trigger}, got ${target}`);
  if (o.cycleCentre !== undefined && !cost)
    problems.push(`cycleCentre: only the cost policy has one, got kind ${o.kind}`);
  else if (cost && (cycleCentre < target || cycleCentre > trigger))
    problems.push(
      `cycleCentre: expected between target ${target} and the manager's threshold ${trigger}, got ${cycleCentre}`,
    );
  if (problems.length > 0) return E.left(invalid("InvalidOptions", "policy options", problems));
  return E.right({
    kind: o.kind,
    trigger,
    hardThreshold,
    target,
    cycleCentre,
    minSavedTokens: o.minSavedTokens ?? (cost ? 0 : 1024),
    minSavedShare: o.minSavedShare ?? 0.1,
    lowSavingShare: o.lowSavingShare ?? 0.25,
    backoffStep: o.backoffStep ?? 0.05,
    minTurnsBetween: o.minTurnsBetween ?? (cost ? 0 : 3),
    remainingTurns: o.remainingTurns,
    prices,
    cooldownTurns: o.cooldownTurns ?? 5,
    summaryOutputTokens: o.summaryOutputTokens ?? 1024,
  });
}
