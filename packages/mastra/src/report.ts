/**
 * What the processor reports after a hook: the hook, the turn's result (or the evicted tool
 * result) and typed warnings — including failures that were absorbed so the agent run goes on.
 *
 * @module report
 */
import type { ContextError, TurnResult, TurnWarning } from "@cc/context";

/**
 * The processor hook that produced a report.
 *
 * @example const hook: CompactionHook = "processLLMRequest";
 */
export type CompactionHook = "processInputStep" | "processLLMRequest" | "processToolResult";

/**
 * A tool result that was written to the index as it arrived and replaced by a pointer.
 *
 * @example
 * const evicted = compaction.lastReport?.evictedToolResult; // { id: "r…", toolCallId: "call-3", toolName: "fetchLogs", tokens: 3363 }
 */
export interface EvictedToolResult {
  /** Index id: `expand_context` with it returns the original text. */
  readonly id: string;
  readonly toolCallId: string;
  readonly toolName: string;
  /** Tokens of the original result (by the manager's counter). */
  readonly tokens: number;
}

/**
 * Something the processor absorbed so the run could go on.
 *
 * @example
 * for (const w of compaction.lastReport?.warnings ?? []) if (w._tag === "CallbackFailed") console.error(w.message);
 */
export type AdapterWarning =
  | TurnWarning
  /** The compaction failed: the messages or prompt went on unchanged. */
  | { readonly _tag: "CompactionFailed"; readonly error: ContextError }
  /** An oversized tool result could not be written to the index: it went on unchanged. */
  | { readonly _tag: "ToolResultKept"; readonly toolCallId: string; readonly reason: string }
  /** The `onCompaction` callback threw or rejected. */
  | { readonly _tag: "CallbackFailed"; readonly message: string };

/**
 * One hook's report.
 *
 * @example
 * createCompactionProcessor({ maxTokens: 8000, onCompaction: (r) => console.log(r.hook, r.turn?.tokensAfter, r.warnings) });
 */
export interface CompactionReport {
  readonly hook: CompactionHook;
  readonly stepNumber: number;
  /** The compaction turn (`processInputStep`, `processLLMRequest`); absent when it failed. */
  readonly turn?: TurnResult;
  /** The tool result evicted by `processToolResult`. */
  readonly evictedToolResult?: EvictedToolResult;
  readonly warnings: readonly AdapterWarning[];
}
