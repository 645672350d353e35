/**
 * The three-level escalation: a detailed LLM summary, then a bullet summary at half the target,
 * then deterministic head+tail truncation that always succeeds. A level's summary is accepted
 * only if it is non-empty, within its target and smaller than its source.
 *
 * @module escalation
 */
import type { TokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import type { Message } from "@cc/messages";
import { summaryPrompt, type PromptLevel } from "./prompts.js";
import { guardProvider } from "./providers/guard.js";
import type { Provider, ProviderError } from "@cc/messages";
import { serialiseTranscript } from "./transcript.js";
import { truncateToBudget } from "./truncate.js";

/**
 * The compaction level reached: `none` when nothing was compacted.
 *
 * @example if (result.level === "truncate") console.warn("every summary was rejected; the head was truncated");
 */
export type Level = "none" | "detailed" | "bullet" | "truncate";

/**
 * Why a level's output was not accepted.
 *
 * @example for (const a of result.attempts) if (a.rejection?._tag === "ProviderFailed") console.warn(a.level, a.rejection.error._tag);
 */
export type Rejection =
  | { readonly _tag: "Empty" }
  | { readonly _tag: "OverTarget"; readonly tokens: number; readonly target: number }
  | { readonly _tag: "NotSmaller"; readonly tokens: number; readonly sourceTokens: number }
  | { readonly _tag: "ProviderFailed"; readonly error: ProviderError }
  | { readonly _tag: "Skipped"; readonly reason: string };

/**
 * One level attempted: accepted, or rejected with the reason.
 *
 * @example result.attempts.map((a) => `${a.level}: ${a.accepted ? "accepted" : a.rejection?._tag}`)
 */
export interface Attempt {
  readonly level: Exclude<Level, "none">;
  readonly target: number;
  readonly accepted: boolean;
  /** Tokens of the level's output (0 when there was none). */
  readonly tokens: number;
  readonly rejection?: Rejection;
}

/** What escalation produced. */
export interface Escalated {
  readonly level: Exclude<Level, "none">;
  readonly summary: string;
  readonly summaryTokens: number;
  readonly attempts: readonly Attempt[];
}

/**
 * Compaction was aborted by the caller's signal.
 *
 * @example
 * const r = await compactor.compact(history, {}, AbortSignal.abort())();
 * // Left({ _tag: "CompactionAborted" })
 */
export interface CompactionAborted {
  readonly _tag: "CompactionAborted";
}

/** What {@link escalate} needs. */
export interface EscalationInput {
  /** The messages to condense (the head). */
  readonly source: readonly Message[];
  /** Token count of `source` (what it costs in context). */
  readonly sourceTokens: number;
  /** Budget of the summary in tokens (≥ 1, below `sourceTokens`). */
  readonly target: number;
  readonly counter: TokenCounter;
  /** `undefined` skips the LLM levels (no provider). */
  readonly provider: Provider | undefined;
  /** The summary model, or why none could be chosen. */
  readonly model: E.Either<string, string>;
  readonly temperature: number;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/**
 * Judges a level's output by the acceptance rule (pure): non-empty, within `target`, smaller
 * than `sourceTokens`.
 */
export function judge(text: string, tokens: number, target: number, sourceTokens: number): Rejection | undefined {
  if (text.trim() === "") return { _tag: "Empty" };
  if (tokens > target) return { _tag: "OverTarget", tokens, target };
  if (tokens >= sourceTokens) return { _tag: "NotSmaller", tokens, sourceTokens };
  return undefined;
}

const isAborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;

const ABORTED: CompactionAborted = { _tag: "CompactionAborted" };

/**
 * Runs the escalation. Never fails except on abort; level 3 always yields an accepted summary
 * within `target` and below `sourceTokens`, so escalation always converges.
 */
export function escalate(input: EscalationInput): TaskEither<CompactionAborted, Escalated> {
  return async () => {
    const { counter, target, sourceTokens, signal } = input;
    const transcript = serialiseTranscript(input.source);
    const attempts: Attempt[] = [];
    const levels: readonly (readonly [PromptLevel, number])[] = [
      ["detailed", target],
      ["bullet", Math.max(1, Math.floor(target / 2))],
    ];
    let llmUsable = true;
    for (const [level, levelTarget] of levels) {
      if (isAborted(signal)) return E.left(ABORTED);
      if (input.provider === undefined || E.isLeft(input.model) || !llmUsable) {
        const reason =
          input.provider === undefined
            ? "no provider"
            : E.isLeft(input.model)
              ? input.model.left
              : "provider unusable after an earlier failure";
        attempts.push({
          level,
          target: levelTarget,
          accepted: false,
          tokens: 0,
          rejection: { _tag: "Skipped", reason },
        });
        continue;
      }
      const request = {
        model: input.model.right,
        messages: summaryPrompt(level, transcript, levelTarget),
        maxTokens: levelTarget,
        temperature: input.temperature,
        ...(signal === undefined ? {} : { signal }),
      };
      const reply = await guardProvider(input.provider, input.timeoutMs).complete(request)();
      if (isAborted(signal)) return E.left(ABORTED);
      if (E.isLeft(reply)) {
        attempts.push({
          level,
          target: levelTarget,
          accepted: false,
          tokens: 0,
          rejection: { _tag: "ProviderFailed", error: reply.left },
        });
        if (reply.left._tag === "ProviderAuthError" || reply.left._tag === "ProviderAborted") llmUsable = false;
        continue;
      }
      const text = reply.right.text.trim();
      const tokens = text === "" ? 0 : counter.count(text);
      const rejection = judge(text, tokens, levelTarget, sourceTokens);
      if (rejection === undefined) {
        attempts.push({ level, target: levelTarget, accepted: true, tokens });
        return E.right({ level, summary: text, summaryTokens: tokens, attempts });
      }
      attempts.push({ level, target: levelTarget, accepted: false, tokens, rejection });
    }
    if (isAborted(signal)) return E.left(ABORTED);
    const budget = Math.max(1, Math.min(target, sourceTokens - 1));
    const cut = truncateToBudget(transcript, budget, counter);
    attempts.push({ level: "truncate", target: budget, accepted: true, tokens: cut.tokens });
    return E.right({ level: "truncate", summary: cut.text, summaryTokens: cut.tokens, attempts });
  };
}
