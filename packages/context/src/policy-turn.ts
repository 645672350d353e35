/**
 * The effectful shell around the pure policy: one turn of a manager that has a `policy`.
 * Renders the prompt (re-using the last compaction's prefix byte for byte), asks `decide`, runs
 * the strategy as a candidate, asks `settle`, commits or discards, publishes the decision.
 *
 * @module policy-turn
 */
import type { Message } from "@cc/messages";
import * as E from "fp-ts/lib/Either.js";
import { decide, settle, type CompactionDecision, type PolicyState } from "./policy/decide.js";
import { applyRendering, renderingOf, stablePrefixTokens, type Rendering } from "./policy/rendering.js";
import type { PolicySettings } from "./policy/settings.js";
import type { ManagerSnapshot } from "./policy/snapshot.js";
import { runHierarchical, runLcm } from "./run.js";
import type { ContextError, ContextEvent, Resolved, TurnResult, TurnWarning } from "./types.js";

/** The mutable cell the manager keeps between policy turns. */
export interface PolicyCell {
  state: PolicyState;
  rendering: Rendering | undefined;
}

/** A cell from a snapshot (or empty). */
export function cellOf(initial: PolicyState, resume: ManagerSnapshot | undefined): PolicyCell {
  return resume === undefined
    ? { state: initial, rendering: undefined }
    : { state: resume.state, rendering: resume.rendering ?? undefined };
}

/** The cell as a snapshot. */
export function snapshotOf(cell: PolicyCell, noteKey: string): ManagerSnapshot {
  return { version: 1, state: cell.state, rendering: cell.rendering ?? null, noteKey };
}

function publish(
  o: Resolved & { readonly events?: { publish(e: ContextEvent): unknown } },
  event: ContextEvent,
  warnings: TurnWarning[],
): void {
  if (o.events === undefined) return;
  try {
    const r = o.events.publish(event);
    if (Array.isArray(r) && r.length > 0)
      warnings.push({ _tag: "EventPublishFailed", event: event._tag, message: `${r.length} subscriber(s) failed` });
  } catch (e) {
    warnings.push({
      _tag: "EventPublishFailed",
      event: event._tag,
      message: e instanceof Error ? e.message : String(e),
    });
  }
}

/** Runs one turn under the policy; the cell is updated only when the turn succeeds. */
export async function policyTurn(
  o: Resolved & { readonly events?: { publish(e: ContextEvent): unknown } },
  s: PolicySettings,
  cell: PolicyCell,
  history: readonly Message[],
  maxTokens: number,
  force: boolean,
  signal: AbortSignal | undefined,
  count: (m: readonly Message[]) => number,
): Promise<E.Either<ContextError, TurnResult>> {
  const { prompt } = applyRendering(cell.rendering, history);
  const tokens = count(prompt);
  const llm = o.strategy === "lcm";
  const { plan, state: decided } = decide(s, cell.state, {
    promptTokens: tokens,
    maxTokens,
    force,
    summaryInputTokens: llm ? tokens : 0,
    stablePrefixTokens: stablePrefixTokens(prompt, count),
  });
  const warnings: TurnWarning[] = [];
  const finish = (
    result: TurnResult,
    decision: CompactionDecision,
    state: PolicyState,
    rendering: Rendering | undefined,
  ): E.Either<ContextError, TurnResult> => {
    cell.state = state;
    cell.rendering = rendering;
    publish(o, { _tag: "CompactionDecided", namespace: o.namespace, turn: state.turn, decision }, warnings);
    return E.right({ ...result, warnings: [...result.warnings, ...warnings], decision });
  };
  const unchanged = (decision: CompactionDecision, state: PolicyState): E.Either<ContextError, TurnResult> =>
    finish(
      {
        messages: prompt,
        compacted: false,
        strategy: o.strategy,
        tokensBefore: tokens,
        tokensAfter: tokens,
        maxTokens,
        budgetMet: tokens <= maxTokens,
        evicted: [],
        masked: [],
        recalled: [],
        summary: "",
        warnings: [],
      },
      decision,
      state,
      cell.rendering,
    );
  if (plan._tag === "Done") return unchanged(plan.decision, decided);
  const provider = llm && plan.useLlm ? o.provider : undefined;
  const candidate = llm
    ? await runLcm(prompt, maxTokens, plan.targetTokens, o, provider, signal)
    : await runHierarchical(prompt, tokens, maxTokens, plan.targetTokens, o, signal);
  if (E.isLeft(candidate)) return candidate;
  const c = candidate.right;
  const settled = settle(s, decided, plan, {
    tokensBefore: tokens,
    tokensAfter: c.result.tokensAfter,
    llmAsked: c.llmAsked,
    ...(c.providerError === undefined ? {} : { summariserError: c.providerError }),
  });
  if (settled.summariserChanged) {
    const sm = settled.state.summariser;
    if (sm._tag === "Disabled") {
      warnings.push({ _tag: "SummariserDisabled", error: sm.error });
      publish(o, { _tag: "SummariserDisabled", namespace: o.namespace, turn: decided.turn, error: sm.error }, warnings);
    } else if (sm._tag === "CoolingDown") {
      publish(
        o,
        {
          _tag: "SummariserCoolingDown",
          namespace: o.namespace,
          turn: decided.turn,
          untilTurn: sm.untilTurn,
          error: sm.error,
        },
        warnings,
      );
    }
  }
  if (!settled.keep) return unchanged(settled.decision, settled.state);
  if (!c.result.compacted) {
    // Nothing could be evicted or summarised (pinned messages and the tail are all there is).
    const decision: CompactionDecision = {
      _tag: "Skipped",
      reason: "NothingToCompact",
      tokens,
      saved: 0,
      minimum: plan.minimum,
    };
    return finish(
      { ...c.result, messages: prompt, tokensAfter: tokens, budgetMet: tokens <= maxTokens },
      decision,
      { ...settled.state, lastCompactionTurn: cell.state.lastCompactionTurn },
      cell.rendering,
    );
  }
  const committed = await c.commit();
  if (E.isLeft(committed)) return committed;
  return finish(
    { ...c.result, warnings: [...c.result.warnings] },
    settled.decision,
    settled.state,
    renderingOf(history, c.result.messages),
  );
}
