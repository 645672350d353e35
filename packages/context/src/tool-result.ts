/**
 * Eviction of one tool result as it arrives: over its limit, the text goes to the manager's index
 * under a content-addressed id and a stub that names the id takes its place.
 *
 * @module tool-result
 */
import { createHash } from "node:crypto";
import { invalid } from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";
import { CONTEXT_TOOL_NAMES } from "./tools.js";
import { describeIndexError, type ContextError, type Resolved } from "./types.js";

/**
 * A tool result moved to the index on arrival (see {@link ContextManager.evictToolResult}).
 *
 * @example const evicted: EvictedToolResult = { id: "r0123…", tokens: 5120, preview: "Traceback (most recent call last):", stub: "[Tool result of 5120 tokens moved to the context index as r0123…. …]" };
 */
export interface EvictedToolResult {
  /** The index id; `expand_context` with it returns the original text. */
  readonly id: string;
  /** Tokens of the original. */
  readonly tokens: number;
  /** The start of the original the stub quotes ("" when none fits). */
  readonly preview: string;
  /** The text to put in the result's place. */
  readonly stub: string;
}

/** The stub that replaces an evicted tool result. */
function toolResultStub(id: string, tokens: number, preview: string): string {
  const tail = preview === "" ? "" : ` Starts with: ${JSON.stringify(preview)}.`;
  return `[Tool result of ${tokens} tokens moved to the context index as ${id}.${tail} Call ${CONTEXT_TOOL_NAMES.expand} with {"id":"${id}"} to read it.]`;
}

/** Moves one tool result over `limit` tokens to the index (see `ContextManager.evictToolResult`). */
export async function evictResult(
  o: Resolved,
  result: { readonly toolCallId: string; readonly toolName: string; readonly content: string },
  limit: number,
): Promise<E.Either<ContextError, EvictedToolResult | undefined>> {
  if (!Number.isSafeInteger(limit) || limit < 0)
    return E.left(
      invalid("InvalidOptions", "evictToolResult options", [
        `maxTokens: expected an integer ≥ 0, got ${String(limit)}`,
      ]),
    );
  if (
    typeof result.content !== "string" ||
    typeof result.toolName !== "string" ||
    typeof result.toolCallId !== "string"
  ) {
    return E.left(
      invalid("InvalidInput", "tool result", ["expected { toolCallId: string, toolName: string, content: string }"]),
    );
  }
  const text = result.content;
  if (limit === 0) return E.right(undefined);
  const tokens = o.counter.count(text);
  if (tokens <= limit) return E.right(undefined);
  // 128 bits: two results with one id would need ~2^64 hashes (64 bits fell to a birthday search in minutes).
  const id = `r${createHash("sha256").update(`${result.toolName}\n${text}`).digest("hex").slice(0, 32)}`;
  const firstLine = text.split("\n").find((l) => l.trim() !== "") ?? "";
  let preview = firstLine.slice(0, 160);
  while (preview !== "" && o.counter.count(toolResultStub(id, tokens, preview)) > limit)
    preview = preview.slice(0, Math.floor(preview.length / 2));
  const stub = toolResultStub(id, tokens, preview);
  // A limit so small that even the bare stub is not shorter than the result: nothing to gain.
  if (o.counter.count(stub) >= tokens) return E.right(undefined);
  const at = o.now();
  const written = await o.index.write([
    {
      id,
      namespace: o.namespace,
      kind: `tool_result:${result.toolName}`,
      summary: `${result.toolName} result (${tokens} tokens): ${firstLine.slice(0, 200)}`,
      content: text,
      tokenCost: tokens,
      createdAt: at,
      evictedAt: at,
      metadata: { toolCallId: result.toolCallId, toolName: result.toolName },
    },
  ])();
  if (E.isLeft(written)) {
    const why = describeIndexError(written.left);
    return E.left({
      _tag: "IndexWriteFailed",
      subject: "index",
      problems: [why],
      message: `the ${tokens}-token result of ${result.toolName} (${result.toolCallId}) stayed whole: the index refused it (${why})`,
      entries: 1,
      cause: written.left,
    });
  }
  return E.right({ id, tokens, preview, stub });
}
