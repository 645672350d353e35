/**
 * Eviction of one oversized tool result as it arrives: the original goes to the manager's index
 * under a content-addressed id, and the message list gets a pointer in its place.
 *
 * @module tool-result
 */
import type { ContextManager } from "@cc/context";
import type { ProcessToolResultArgs } from "@mastra/core/processors";
import { createHash } from "node:crypto";
import * as E from "fp-ts/lib/Either.js";
import { jsonText } from "./convert/converted.js";
import type { AdapterWarning, EvictedToolResult } from "./report.js";

/**
 * What replaces an evicted tool result in the conversation.
 *
 * @example { evicted: true, id: "r67…", tokens: 3363, preview: "{\"log\":\"…", instruction: "The full result (3363 tokens) is in the context journal: call expand_context …" }
 */
export interface ToolResultPointer {
  readonly evicted: true;
  /** The index id; `expand_context` with it returns the original. */
  readonly id: string;
  readonly tokens: number;
  /** The first characters of the original. */
  readonly preview: string;
  readonly instruction: string;
}

const PREVIEW_CHARS = 400;

/**
 * Writes `args.result` to the manager's index and puts a {@link ToolResultPointer} in its place
 * when it is over `maxTokens`; `undefined` when it fits (nothing to do).
 *
 * @example
 * const r = await evictToolResult(processor.manager, 2000, args); // Right({ id: "r…", tokens: 5120, … })
 */
export async function evictToolResult(manager: ContextManager, maxTokens: number, args: ProcessToolResultArgs): Promise<E.Either<AdapterWarning, EvictedToolResult> | undefined> {
  const text = jsonText(args.result);
  const { counter, index, namespace, now } = manager.options;
  const kept = (reason: string): E.Either<AdapterWarning, EvictedToolResult> => E.left({ _tag: "ToolResultKept", toolCallId: args.toolCallId, reason });
  try {
    const tokens = counter.count(text);
    if (tokens <= maxTokens) return undefined;
    // 128 bits: two results with one id would need ~2^64 hashes (64 bits fell to a birthday search in minutes).
    const id = `r${createHash("sha256").update(`${args.toolName}\n${text}`).digest("hex").slice(0, 32)}`;
    const at = now();
    const preview = text.slice(0, PREVIEW_CHARS);
    const written = await index.write([
      {
        id, namespace, kind: `tool_result:${args.toolName}`, summary: `${args.toolName} result (${tokens} tokens): ${preview.slice(0, 200)}`,
        content: text, tokenCost: tokens, createdAt: at, evictedAt: at, metadata: { toolCallId: args.toolCallId, toolName: args.toolName },
      },
    ])();
    if (E.isLeft(written)) return kept(`the index refused the result: ${written.left._tag}${"message" in written.left ? ` ${written.left.message}` : ""}`);
    const pointer: ToolResultPointer = {
      evicted: true, id, tokens, preview,
      instruction: `The full result (${tokens} tokens) is in the context journal: call expand_context with id "${id}" to read it.`,
    };
    const updated = args.messageList.updateToolInvocation({
      type: "tool-invocation",
      toolInvocation: { state: "result", toolCallId: args.toolCallId, toolName: args.toolName, args: args.args as Record<string, unknown>, result: pointer },
    });
    if (!updated) return kept("the tool call is not in the message list");
    return E.right({ id, toolCallId: args.toolCallId, toolName: args.toolName, tokens });
  } catch (e) {
    return kept(`a dependency threw: ${e instanceof Error ? e.message : String(e)}`);
  }
}
