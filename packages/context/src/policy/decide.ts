/**
 * The compaction policy as a pure state machine: `decide(settings, state, turn)` says whether
 * this turn compacts (and to what target, with or without the LLM summariser);
 * `settle(settings, state, outcome)` turns the compaction's real figures into the final
 * {@link CompactionDecision} and the next state (back-off, interval, summariser cooldown). The
 * context manager is the effectful shell around them.
 *
 * @module policy/decide
 */
import { tokensWithin } from "@cc/tokens";
import { costVerdict, type CostEstimate, type CostVerdict } from "./cost-model.js";
import type { PolicySettings } from "./settings.js";

/** Why a turn compacted. */
export type CompactReason = "Forced" | "HardThreshold" | "Threshold" | "CostPays";

/** Why a turn did not compact although it might have. */
export type WaitReason = "BelowTrigger" | "MinInterval" | "BelowBreakEven" | "HorizonTooShort";

/** Who wrote the summary of a compaction. */
export type SummariserUse = "llm" | "cooling-down" | "disabled" | "none";

/**
 * What the policy decided for one turn — a value on every `TurnResult` of a manager with a
 * policy, and a `CompactionDecided` event.
 *
 * @example if (turn.decision?._tag === "Skipped") console.log(`skipped: saves ${turn.decision.saved} < ${turn.decision.minimum}`);
 */
export type CompactionDecision =
  | {
      readonly _tag: "Compacted";
      readonly reason: CompactReason;
      readonly tokensBefore: number;
      readonly tokensAfter: number;
      readonly triggerTokens: number;
      readonly targetTokens: number;
      readonly summariser: SummariserUse;
      readonly estimate?: CostEstimate;
    }
  | {
      readonly _tag: "Waited";
      readonly reason: WaitReason;
      readonly tokens: number;
      readonly triggerTokens: number;
      readonly estimate?: CostEstimate;
    }
  /**
   * A compaction was due but `SavingTooSmall` (it would save less than `minimum`) or
   * `NothingToCompact` (only pinned messages and the tail): the prompt is unchanged, nothing lost.
   */
  | {
      readonly _tag: "Skipped";
      readonly reason: "SavingTooSmall" | "NothingToCompact";
      readonly tokens: number;
      readonly saved: number;
      readonly minimum: number;
    };

/** The LLM summariser's health across turns. */
export type SummariserState =
  | { readonly _tag: "Ready" }
  | { readonly _tag: "CoolingDown"; readonly untilTurn: number; readonly error: string }
  | { readonly _tag: "Disabled"; readonly error: string };

/** The policy's memory between turns (plain data, JSON-safe). */
export interface PolicyState {
  /** Turns decided so far. */
  readonly turn: number;
  readonly lastCompactionTurn: number | null;
  /** Share of `maxTokens` added to the trigger by back-off. */
  readonly backoff: number;
  /** Tokens of the prompt sent last turn. */
  readonly lastPromptTokens: number | null;
  /** Growth measured so far: tokens added over turns observed. */
  readonly grownTokens: number;
  readonly grownTurns: number;
  readonly summariser: SummariserState;
}

/**
 * The largest value a counter of the state takes (`Number.MAX_SAFE_INTEGER`): the turn number, the
 * growth total and a cooldown's end stop there instead of leaving the safe integers, so every
 * state a turn produces is one a snapshot accepts again (a snapshot at the last turn resumes, and
 * so does the snapshot after it).
 */
export const MAX_COUNTER = Number.MAX_SAFE_INTEGER;

/** `n` held at {@link MAX_COUNTER}. */
const capped = (n: number): number => Math.min(n, MAX_COUNTER);

/** The state before the first turn. */
export const initialPolicyState: PolicyState = {
  turn: 0,
  lastCompactionTurn: null,
  backoff: 0,
  lastPromptTokens: null,
  grownTokens: 0,
  grownTurns: 0,
  summariser: { _tag: "Ready" },
};

/** What {@link decide} is told about a turn. */
export interface TurnInput {
  readonly promptTokens: number;
  readonly maxTokens: number;
  readonly force: boolean;
  /** Tokens an LLM summary would read (0 when the strategy calls no LLM). */
  readonly summaryInputTokens: number;
  /** Leading tokens a compaction leaves unchanged (see {@link stablePrefixTokens}); absent: 0. */
  readonly stablePrefixTokens?: number;
}

/** What {@link decide} asks the shell to do. */
export type Plan =
  | {
      readonly _tag: "Compact";
      readonly reason: CompactReason;
      readonly targetTokens: number;
      readonly triggerTokens: number;
      readonly minimum: number;
      readonly useLlm: boolean;
      readonly estimate?: CostEstimate;
    }
  | { readonly _tag: "Done"; readonly decision: CompactionDecision };

/** Token thresholds of a turn. */
export function thresholds(
  s: PolicySettings,
  state: PolicyState,
  maxTokens: number,
): { readonly hard: number; readonly trigger: number; readonly target: number } {
  const hard = tokensWithin(s.hardThreshold, maxTokens);
  const trigger = tokensWithin(Math.min(s.hardThreshold, s.trigger + state.backoff), maxTokens);
  return { hard, trigger, target: tokensWithin(s.target, maxTokens) };
}

/** The cost model's mean prompt in tokens (never below the floor). */
const centreOf = (s: PolicySettings, th: { readonly target: number }, maxTokens: number): number =>
  Math.max(th.target, Math.floor(s.cycleCentre * maxTokens));

/** The least saving worth a compaction of a `tokens`-token prompt. */
export const minimumSaving = (s: PolicySettings, tokens: number): number =>
  Math.max(s.minSavedTokens, Math.ceil(s.minSavedShare * tokens));

const useLlm = (state: PolicyState, turn: number): boolean =>
  state.summariser._tag === "Ready" || (state.summariser._tag === "CoolingDown" && turn >= state.summariser.untilTurn);

/**
 * Decides one turn (pure). The hard threshold and anything over `maxTokens` always compact.
 *
 * @example
 * const { plan, state: next } = decide(settings, initialPolicyState, { promptTokens: 9000, maxTokens: 10000, force: false, summaryInputTokens: 0 });
 */
export function decide(
  s: PolicySettings,
  state: PolicyState,
  input: TurnInput,
): { readonly plan: Plan; readonly state: PolicyState } {
  const turn = capped(state.turn + 1);
  const P = input.promptTokens;
  const grew = state.lastPromptTokens !== null && P >= state.lastPromptTokens;
  const next: PolicyState = {
    ...state,
    turn,
    lastPromptTokens: P,
    grownTokens: grew ? capped(state.grownTokens + (P - state.lastPromptTokens!)) : state.grownTokens,
    grownTurns: grew ? state.grownTurns + 1 : state.grownTurns,
  };
  const th = thresholds(s, state, input.maxTokens);
  const minimum = minimumSaving(s, P);
  const llm = useLlm(state, turn);
  const verdict = (): CostVerdict =>
    costVerdict({
      promptTokens: P,
      triggerTokens: tokensWithin(s.trigger, input.maxTokens),
      floorTokens: th.target,
      centreTokens: centreOf(s, th, input.maxTokens),
      stablePrefixTokens: input.stablePrefixTokens ?? 0,
      hardTokens: th.hard,
      summaryInputTokens: llm ? input.summaryInputTokens : 0,
      summaryOutputTokens: llm && input.summaryInputTokens > 0 ? s.summaryOutputTokens : 0,
      growthPerTurn: next.grownTurns > 0 ? next.grownTokens / next.grownTurns : P / turn,
      remainingTurns: s.remainingTurns ?? Math.max(turn, s.minTurnsBetween),
      prices: s.prices,
    });
  const compact = (reason: CompactReason): { plan: Plan; state: PolicyState } => {
    // The cost model picks its own target (the bottom of its cycle), also at the hard threshold.
    const estimate = s.kind === "cost" ? verdict().estimate : undefined;
    const targetTokens =
      estimate !== undefined ? estimate.targetTokens : s.kind === "threshold" ? th.trigger : th.target;
    return {
      plan: {
        _tag: "Compact",
        reason,
        targetTokens,
        triggerTokens: estimate?.breakEvenTokens ?? th.trigger,
        minimum: s.kind === "cost" ? s.minSavedTokens : minimum,
        useLlm: llm,
        ...(estimate === undefined ? {} : { estimate }),
      },
      state: next,
    };
  };
  const done = (decision: CompactionDecision): { plan: Plan; state: PolicyState } => ({
    plan: { _tag: "Done", decision },
    state: next,
  });
  if (input.force) return compact("Forced");
  if (P >= th.hard || P > input.maxTokens) return compact("HardThreshold");
  // The cost model's own trigger is its centre: between it and the manager's threshold its verdict decides.
  const wakeAt = s.kind === "cost" ? Math.min(th.trigger, centreOf(s, th, input.maxTokens)) : th.trigger;
  if (P < wakeAt) return done({ _tag: "Waited", reason: "BelowTrigger", tokens: P, triggerTokens: wakeAt });
  if (s.kind === "threshold") return compact("Threshold");
  if (state.lastCompactionTurn !== null && turn - state.lastCompactionTurn < s.minTurnsBetween) {
    return done({ _tag: "Waited", reason: "MinInterval", tokens: P, triggerTokens: th.trigger });
  }
  if (s.kind === "hermes") {
    const saved = P - th.target;
    if (saved < minimum)
      return {
        plan: { _tag: "Done", decision: { _tag: "Skipped", reason: "SavingTooSmall", tokens: P, saved, minimum } },
        state: { ...next, backoff: grow(s, state.backoff) },
      };
    return compact("Threshold");
  }
  // The cost model: its own minimum is economic; `minSavedTokens` stays a floor, and it needs no back-off.
  const v = verdict();
  const e = v.estimate;
  if (v._tag !== "Pays")
    return done({ _tag: "Waited", reason: v._tag, tokens: P, triggerTokens: e.breakEvenTokens, estimate: e });
  if (P - e.targetTokens < s.minSavedTokens)
    return done({
      _tag: "Skipped",
      reason: "SavingTooSmall",
      tokens: P,
      saved: P - e.targetTokens,
      minimum: s.minSavedTokens,
    });
  return compact("CostPays");
}

const grow = (s: PolicySettings, backoff: number): number =>
  Math.min(Math.max(0, s.hardThreshold - s.trigger), backoff + s.backoffStep);

/** What a compaction did, as the shell measured it. */
export interface CompactionOutcome {
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** True when the LLM summariser was asked. */
  readonly llmAsked: boolean;
  /** The summariser's failure (its error `_tag`), when it failed. */
  readonly summariserError?: string;
}

/** The result of {@link settle}: the final decision, whether to keep the compaction, the next state. */
export interface Settled {
  readonly decision: CompactionDecision;
  /** False when the candidate is discarded (the prompt stays as it was). */
  readonly keep: boolean;
  readonly state: PolicyState;
  /** The summariser changed state this turn (an event to announce). */
  readonly summariserChanged: boolean;
}

/** Authentication and permission failures: retrying does not help, so LLM summaries stop for the session. */
export const isAuthFailure = (errorTag: string): boolean => errorTag === "ProviderAuthError";

/**
 * Settles a planned compaction with its real figures (pure): a saving below the minimum is
 * discarded as `Skipped` (never at the hard threshold or when forced), a poor saving backs off,
 * a summariser failure starts a cooldown (an authentication failure disables the LLM for good).
 *
 * @example
 * const decided = decide(settings, initialPolicyState, { promptTokens: 9000, maxTokens: 10000, force: false, summaryInputTokens: 0 });
 * if (decided.plan._tag === "Compact") {
 *   const { decision, keep, state } = settle(settings, decided.state, decided.plan, { tokensBefore: 9000, tokensAfter: 5000, llmAsked: false });
 * }
 */
export function settle(
  s: PolicySettings,
  state: PolicyState,
  plan: Extract<Plan, { _tag: "Compact" }>,
  o: CompactionOutcome,
): Settled {
  const summariser: SummariserState =
    o.summariserError === undefined
      ? o.llmAsked
        ? { _tag: "Ready" }
        : state.summariser
      : state.summariser._tag === "Disabled"
        ? state.summariser
        : isAuthFailure(o.summariserError)
          ? { _tag: "Disabled", error: o.summariserError }
          : { _tag: "CoolingDown", untilTurn: capped(state.turn + 1 + s.cooldownTurns), error: o.summariserError };
  const summariserChanged =
    summariser._tag !== state.summariser._tag || (summariser._tag === "CoolingDown" && o.summariserError !== undefined);
  const saved = o.tokensBefore - o.tokensAfter;
  const mayDiscard = s.kind !== "threshold" && plan.reason !== "Forced" && plan.reason !== "HardThreshold";
  if (mayDiscard && saved < plan.minimum) {
    return {
      decision: { _tag: "Skipped", reason: "SavingTooSmall", tokens: o.tokensBefore, saved, minimum: plan.minimum },
      keep: false,
      state: { ...state, backoff: s.kind === "hermes" ? grow(s, state.backoff) : state.backoff, summariser },
      summariserChanged,
    };
  }
  const poor = o.tokensBefore > 0 && saved / o.tokensBefore < s.lowSavingShare;
  const use: SummariserUse = !o.llmAsked
    ? state.summariser._tag === "Disabled"
      ? "disabled"
      : state.summariser._tag === "CoolingDown"
        ? "cooling-down"
        : "none"
    : "llm";
  return {
    decision: {
      _tag: "Compacted",
      reason: plan.reason,
      tokensBefore: o.tokensBefore,
      tokensAfter: o.tokensAfter,
      triggerTokens: plan.triggerTokens,
      targetTokens: plan.targetTokens,
      summariser: use,
      ...(plan.estimate === undefined ? {} : { estimate: plan.estimate }),
    },
    keep: true,
    state: {
      ...state,
      lastCompactionTurn: state.turn,
      lastPromptTokens: o.tokensAfter,
      backoff: s.kind === "hermes" && poor ? grow(s, state.backoff) : 0,
      summariser,
    },
    summariserChanged,
  };
}
