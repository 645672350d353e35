/**
 * Eviction of one oversized tool result as it arrives: the original goes to the manager's index
 * under a content-addressed id, and the message list gets a pointer in its place.
 *
 * @module tool-result
 */
import type { ContextManager } from "@cc/context";
import type { ProcessToolResultArgs } from "@mastra/core/processors";
import * as E from "fp-ts/lib/Either.js";
import { jsonText } from "./convert/converted.js";
import type { AdapterWarning, EvictedToolResult } from "./report.js";

/**
 * What replaces an evicted tool result in the conversation: the index id, the tokens and the
 * preview the manager's stub quotes, and the stub itself as `instruction`.
 *
 * @example const pointer: ToolResultPointer = { evicted: true, id: "r67…", tokens: 3363, preview: "{\"log\":\"…", instruction: "[Tool result of 3363 tokens moved to the context index as r67…. … Call expand_context with {\"id\":\"r67…\"} to read it.]" };
 */
export interface ToolResultPointer {
  readonly evicted: true;
  /** The index id; `expand_context` with it returns the original. */
  readonly id: string;
  readonly tokens: number;
  /** The start of the original's first line ("" when none fits the limit). */
  readonly preview: string;
  /** The manager's stub text: what was moved and how to read it back. */
  readonly instruction: string;
}

/**
 * Writes `args.result` to the manager's index (`manager.evictToolResult`) and puts a
 * {@link ToolResultPointer} in its place when it is over `maxTokens`; `undefined` when it fits
 * (nothing to do).
 *
 * @example
 * const r = await evictToolResult(compaction.manager, 2000, args); // Right({ id: "r…", tokens: 5120, … })
 */
export async function evictToolResult(
  manager: ContextManager,
  maxTokens: number,
  args: ProcessToolResultArgs,
): Promise<E.Either<AdapterWarning, EvictedToolResult> | undefined> {
  const kept = (reason: string): E.Either<AdapterWarning, EvictedToolResult> =>
    E.left({ _tag: "ToolResultKept", toolCallId: args.toolCallId, reason });
  try {
    const r = await manager.evictToolResult(
      { toolCallId: args.toolCallId, toolName: args.toolName, content: jsonText(args.result) },
      { maxTokens },
    );
    if (E.isLeft(r)) return kept("message" in r.left ? r.left.message : r.left._tag);
    if (r.right === undefined) return undefined;
    const { id, tokens, preview, stub } = r.right;
    const pointer: ToolResultPointer = { evicted: true, id, tokens, preview, instruction: stub };
    const updated = args.messageList.updateToolInvocation({
      type: "tool-invocation",
      toolInvocation: {
        state: "result",
        toolCallId: args.toolCallId,
        toolName: args.toolName,
        args: args.args as Record<string, unknown>,
        result: pointer,
      },
    });
    if (!updated) return kept("the tool call is not in the message list");
    return E.right({ id, toolCallId: args.toolCallId, toolName: args.toolName, tokens });
  } catch (e) {
    return kept(`a dependency threw: ${e instanceof Error ? e.message : String(e)}`);
  }
}
