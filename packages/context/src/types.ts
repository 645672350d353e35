/**
 * The types a turn speaks in: its result, its warnings, its errors, its events.
 *
 * @module types
 */
import type { EvictedEntry, EvictionOptions, MaskedEntry, MaskOptions } from "@cc/hierarchical";
import type { IndexError, SegmentIndex } from "@cc/search";
import type { RecallOptions } from "./recall.js";
import type { AlertSink, Level } from "@cc/lcm";
import type { Message, Provider } from "@cc/messages";
import type { TokenCounter } from "@cc/tokens";
import type { InvalidInput, InvalidOptions } from "@cc/validate";
import type { CompactionDecision } from "./policy/decide.js";
import type { StrategyName } from "./strategy.js";
import { CcError, type CcErrorOf } from "@cc/validate";

/** Something that did not go to plan in a turn that still produced a prompt. */
export type TurnWarning =
  /**
   * No LLM summary was accepted: the older part was cut by deterministic truncation. `attempts`
   * says why each level was rejected; `providerFailed` is true when the provider itself failed.
   */
  | { readonly _tag: "SummaryFellToTruncation"; readonly attempts: readonly string[]; readonly providerFailed: boolean }
  /**
   * The summariser failed with an authentication or permission error: LLM summaries are off for
   * the rest of the session (truncation keeps the budget). Raised once, on the turn it happened.
   */
  | { readonly _tag: "SummariserDisabled"; readonly error: string }
  /** The event sink threw (the turn went on). */
  | { readonly _tag: "EventPublishFailed"; readonly event: string; readonly message: string }
  /**
   * A unit chosen for eviction stayed in context because its summary could not be written
   * (`reason` names the failure, e.g. an `IdConflict` when its id and every alternative of it
   * already hold other originals in the index).
   */
  | { readonly _tag: "UnitKept"; readonly id: string; readonly reason: string }
  /** The recall's search or expand failed in the index (`message` says how); the prompt went out without a recall. */
  | { readonly _tag: "RecallFailed"; readonly message: string }
  /**
   * The index already held a different original under the unit's id `id` (another writer of a
   * shared index): the unit was evicted under `writtenAs` instead — the first free alternative,
   * `id~1` … `id~8`, chosen deterministically — which `evicted` and the note name and which
   * expands to the unit. The other original is untouched; the rest of the turn is unaffected.
   */
  | { readonly _tag: "UnitIdDisambiguated"; readonly id: string; readonly writtenAs: string }
  /** The prompt is still over `maxTokens` (pinned system messages and the last step alone exceed it). */
  | { readonly _tag: "BudgetNotMet"; readonly tokens: number; readonly maxTokens: number; readonly reason: string }
  /** The budget is too small to hold the note that lists evicted units: nothing was evicted. */
  | { readonly _tag: "NoteDoesNotFit"; readonly targetTokens: number; readonly reservedTokens: number }
  /** The alert sink threw, rejected or did not settle in time (the turn went on). */
  | { readonly _tag: "AlertSinkFailed"; readonly message: string }
  /**
   * The task (the first user message, `tokens` long) would take more than half of the turn's
   * target (`limit` is that half), so it was compacted like the rest instead of kept verbatim.
   */
  | { readonly _tag: "TaskNotPinned"; readonly tokens: number; readonly limit: number }
  /**
   * The task (`tokens` long as a message) was too large to pin whole: an excerpt of `excerptTokens` (its
   * opening, a pointer, the key facts of the rest) is pinned in its place, and the whole task is
   * in the index under `id` (expand it to read it).
   */
  | { readonly _tag: "TaskExcerpted"; readonly id: string; readonly tokens: number; readonly excerptTokens: number };

/** What one turn did. `messages` is the next prompt. */
export interface TurnResult {
  /** The next prompt: system messages, the summary or note (if any), kept messages, the verbatim tail. */
  readonly messages: readonly Message[];
  /** True when the prompt was changed. */
  readonly compacted: boolean;
  readonly strategy: StrategyName;
  /** Tokens of the input and of `messages`, by the manager's counter. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly maxTokens: number;
  /** `tokensAfter <= maxTokens`, judged with the manager's counter (exact by default). */
  readonly budgetMet: boolean;
  /** The units evicted in this turn (`hierarchical`): index id, kind, tokens, summary; each id expands back. */
  readonly evicted: readonly EvictedEntry[];
  /**
   * The outputs masked in this turn (`hierarchical` with `mask`): their stubs are in `messages`,
   * each naming the index id its original expands from.
   */
  readonly masked: readonly MaskedEntry[];
  /** Index ids whose originals the recall message at the end of `messages` brought back (see `recall`). */
  readonly recalled: readonly string[];
  /** The summary or note added to the prompt ("" when none). */
  readonly summary: string;
  /** `lcm`: the escalation level that produced the summary. */
  readonly level?: Level;
  readonly warnings: readonly TurnWarning[];
  /** What the manager's policy decided (present when the manager has a `policy`). */
  readonly decision?: CompactionDecision;
}

/**
 * Why a turn (or a search, an expand) produced nothing. `IndexWriteFailed`: the index refused the
 * turn's batch of evicted units — none of them was written and the history is unchanged;
 * `problems` names the index's error (a storage failure, or `IdConflict: id "u…" in namespace "s1"
 * already holds a different original` when another process wrote a different original under an
 * evicted unit's id between the turn's pass and its commit — an id already taken when the pass
 * runs costs only that unit its id, see the `UnitIdDisambiguated` warning) and `cause` is that
 * error as the index returned it. `IndexReadFailed`: `search` or `expand` failed in the index
 * (`cause`, the index's typed error). `DependencyFailed`: a counter, index, provider or clock you
 * supplied threw; `cause` is what it threw.
 */
export type ContextError =
  | InvalidOptions
  | InvalidInput
  | { readonly _tag: "Aborted"; readonly subject: string; readonly problems: readonly [] }
  | {
      readonly _tag: "IndexWriteFailed";
      readonly subject: "index";
      readonly problems: readonly string[];
      readonly message: string;
      readonly entries: number;
      readonly cause: IndexError;
    }
  | {
      readonly _tag: "IndexReadFailed";
      readonly subject: "search" | "expand";
      readonly problems: readonly string[];
      readonly message: string;
      readonly cause: IndexError;
    }
  | {
      readonly _tag: "DependencyFailed";
      readonly subject: "turn" | "toolResult";
      readonly problems: readonly string[];
      readonly message: string;
      readonly cause: unknown;
    };

/** One line naming an index error: its tag, and its message when it has one. */
export const describeIndexError = (e: IndexError): string =>
  `${e._tag}${"message" in e ? `: ${String(e.message)}` : ""}`;

/**
 * The rejection of the Promise facade: an `Error` that carries the typed {@link ContextError}
 * (and, as its standard `cause`, the original error of a failed index or dependency).
 *
 * @deprecated Use `CcError` from @cc/validate (this name is the same class; `instanceof` keeps working); kept one release.
 */
export const ContextManagerError = CcError as unknown as CcErrorOf<ContextError>;
/** @deprecated Use `CcError` from @cc/validate (the one error class of @cc); kept one release. */
export type ContextManagerError = InstanceType<typeof ContextManagerError>;

/**
 * What a manager with a policy announces on its `events` sink (e.g. a `@cc/session` event bus):
 * every turn's decision, and the summariser's cooldowns.
 *
 * @example createContextManager({ maxTokens: 8000, events: { publish: (e: ContextEvent) => { if (e._tag === "CompactionDecided") console.log(e.decision); } } })
 */
export type ContextEvent =
  | {
      readonly _tag: "CompactionDecided";
      readonly namespace: string;
      readonly turn: number;
      readonly decision: CompactionDecision;
    }
  /** The summariser failed: no LLM attempt before turn `untilTurn` (truncation meanwhile). */
  | {
      readonly _tag: "SummariserCoolingDown";
      readonly namespace: string;
      readonly turn: number;
      readonly untilTurn: number;
      readonly error: string;
    }
  /** An authentication or permission failure: no LLM summaries for the rest of the session. */
  | { readonly _tag: "SummariserDisabled"; readonly namespace: string; readonly turn: number; readonly error: string };

/** Where a manager publishes its {@link ContextEvent}s (structurally, a `@cc/session` `EventBus`). */
export interface EventSink {
  publish(event: ContextEvent): unknown;
}

/** The manager's settings with defaults filled in. */
export interface Resolved {
  readonly maxTokens: number;
  readonly strategy: StrategyName;
  readonly threshold: number;
  readonly preserveLast: number;
  readonly counter: TokenCounter;
  readonly provider: Provider;
  readonly index: SegmentIndex;
  readonly namespace: string;
  readonly noteTokens: number;
  readonly concurrency: number;
  readonly summaryModel: string;
  readonly now: () => number;
  /** The secret the manager's notes are sealed with. */
  readonly noteKey: string;
  /** Keep the task in the prompt (see `ContextManagerOptions.pinTask`). */
  readonly pinTask: boolean;
  /** Let this turn rewrite kept messages (see `CompactCallOptions.rewrite`); absent: true. */
  readonly rewrite?: boolean;
  /** Fact-keeping masks of the `hierarchical` strategy (`false`: whole units only). */
  readonly mask: MaskOptions | false;
  /** Automatic recall (`false`: none). */
  readonly recall: RecallOptions | false;
  /** Overrides of the eviction scoring (`hierarchical`). */
  readonly scoring: NonNullable<EvictionOptions["scoring"]>;
  /** A fact line in the eviction note (`hierarchical`, see `ContextManagerOptions.noteFacts`). */
  readonly noteFacts: boolean;
  readonly alertSink?: AlertSink;
}
