/**
 * Boundary checks shared by every store backend, and the lossless row encoding of messages and
 * summaries (JSON text, so lone surrogates and NUL survive any database's text type).
 *
 * @module session/store/validate
 */
import * as E from "fp-ts/lib/Either.js";
import type { Either } from "fp-ts/lib/Either.js";
import { MessagesCodec, MessageCodec, type Message } from "@cc/messages";
import { describeErrors } from "../report.js";
import { MAX_STACK_ID_LENGTH, type StackId, type StoreError, type SummaryDraft } from "./store.js";

const roles: readonly string[] = ["system", "user", "assistant", "tool"];

const invalid = (field: string, message: string): StoreError => ({ _tag: "StoreInvalidInput", field, message });

/** True when `s` has a UTF-16 surrogate that is not part of a pair. */
export const hasLoneSurrogate = (s: string): boolean => /\p{Cs}/u.test(s);

/** Accepts a non-empty, well-formed stack id of bounded length. */
export function checkStackId(stackId: unknown): Either<StoreError, StackId> {
  if (typeof stackId !== "string") return E.left(invalid("stackId", `stackId must be a string, got ${typeof stackId}`));
  if (stackId.length === 0) return E.left(invalid("stackId", "stackId must not be empty"));
  if (stackId.length > MAX_STACK_ID_LENGTH) {
    return E.left(invalid("stackId", `stackId is ${stackId.length} characters; at most ${MAX_STACK_ID_LENGTH} are allowed`));
  }
  if (stackId.includes("\u0000")) return E.left(invalid("stackId", "stackId must not contain NUL characters"));
  if (hasLoneSurrogate(stackId)) {
    return E.left(invalid("stackId", "stackId contains a lone UTF-16 surrogate; databases would silently alter it"));
  }
  return E.right(stackId);
}

/** Accepts a finite, non-negative clock reading. */
export function checkNow(now: unknown): Either<StoreError, number> {
  return typeof now === "number" && Number.isFinite(now) && now >= 0
    ? E.right(now)
    : E.left(invalid("now", `now must be a finite, non-negative epoch-milliseconds number, got ${String(now)}`));
}

/** Accepts a non-negative safe integer (an id or a watermark). */
export function checkId(field: string, value: unknown): Either<StoreError, number> {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0
    ? E.right(value)
    : E.left(invalid(field, `${field} must be a non-negative integer, got ${String(value)}`));
}

/** Validates messages with the message codec; the message names the index and field at fault. */
export function checkMessages(messages: unknown): Either<StoreError, readonly Message[]> {
  if (Array.isArray(messages)) {
    const bad = messages.findIndex((m: unknown) => typeof m !== "object" || m === null || !roles.includes((m as { role?: unknown }).role as string));
    if (bad >= 0) {
      const m: unknown = messages[bad];
      const got = typeof m === "object" && m !== null ? JSON.stringify((m as { role?: unknown }).role) ?? "nothing" : String(m);
      return E.left(invalid("messages", `messages[${bad}].role must be one of ${roles.join(", ")}, got ${got}`));
    }
  }
  return E.mapLeft((errors: Parameters<typeof describeErrors>[0]) => invalid("messages", describeErrors(errors, "messages")))(
    MessagesCodec.decode(messages),
  );
}

/** Validates a summary draft: string content (not blank), watermark ≥ 1, previous id null or ≥ 1. */
export function checkDraft(draft: unknown): Either<StoreError, SummaryDraft> {
  if (typeof draft !== "object" || draft === null) return E.left(invalid("draft", "draft must be an object"));
  const d = draft as Record<string, unknown>;
  const content = d["content"];
  if (typeof content !== "string") return E.left(invalid("draft.content", "draft.content must be a string"));
  if (content.trim().length === 0) return E.left(invalid("draft.content", "draft.content is blank; an empty summary is never saved"));
  const coversUpTo = d["coversUpTo"];
  if (typeof coversUpTo !== "number" || !Number.isSafeInteger(coversUpTo) || coversUpTo < 1) {
    return E.left(invalid("draft.coversUpTo", `draft.coversUpTo must be a message id (integer ≥ 1), got ${String(coversUpTo)}`));
  }
  const previousId = d["previousId"];
  if (previousId !== null && (typeof previousId !== "number" || !Number.isSafeInteger(previousId) || previousId < 1)) {
    return E.left(invalid("draft.previousId", `draft.previousId must be null or a summary id (integer ≥ 1), got ${String(previousId)}`));
  }
  return E.right({ content, coversUpTo, previousId });
}

/**
 * The watermark rule every backend enforces: a new summary covers at least one message more than
 * the one it supersedes, and no message that does not exist yet.
 */
export function watermarkProblem(coversUpTo: number, lastMessageId: number, previousCoversUpTo: number): string | undefined {
  if (coversUpTo > lastMessageId) return `coversUpTo ${coversUpTo} is past the last stored message id ${lastMessageId}`;
  if (coversUpTo <= previousCoversUpTo) {
    return `coversUpTo ${coversUpTo} does not move past the previous summary's watermark ${previousCoversUpTo}`;
  }
  return undefined;
}

/** Encodes a message for a text column. */
export const encodeMessage = (message: Message): string => JSON.stringify(message);

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === "object" && u !== null && !Array.isArray(u);

const isToolCall = (u: unknown): boolean =>
  isRecord(u) && typeof u["id"] === "string" && typeof u["name"] === "string" && typeof u["arguments"] === "string";

/**
 * True when `u` has the shape {@link MessageCodec} accepts: the same rules (role, string
 * content, optional string id, optional finite timestamp, tool calls of three strings, a tool
 * message's call id and optional name; other keys kept), written as plain checks so a read of
 * thousands of stored rows allocates nothing per row. Agreement with the codec is a property test.
 *
 * @example
 * isMessageShape({ role: "user", content: "hi" }); // true
 * isMessageShape({ role: "tool", content: "ok" }); // false: no toolCallId
 */
export function isMessageShape(u: unknown): u is Message {
  if (!isRecord(u) || typeof u["content"] !== "string") return false;
  const id = u["id"];
  if (id !== undefined && typeof id !== "string") return false;
  const timestamp = u["timestamp"];
  if (timestamp !== undefined && (typeof timestamp !== "number" || !Number.isFinite(timestamp))) return false;
  switch (u["role"]) {
    case "system":
    case "user":
      return true;
    case "assistant": {
      const calls = u["toolCalls"];
      if (calls === undefined) return true;
      if (!Array.isArray(calls)) return false;
      for (let i = 0; i < calls.length; i++) if (!isToolCall(calls[i])) return false;
      return true;
    }
    case "tool": {
      const name = u["name"];
      return typeof u["toolCallId"] === "string" && (name === undefined || typeof name === "string");
    }
    default:
      return false;
  }
}

/**
 * Decodes a message column; `Left` carries a readable reason. Well-formed rows take the
 * allocation-free {@link isMessageShape} path; only a row it refuses goes through the codec,
 * whose errors name the field at fault.
 */
export function decodeMessage(text: string): Either<string, Message> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return E.left(`stored message is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (isMessageShape(parsed)) return E.right(parsed);
  if (isRecord(parsed) && !roles.includes(parsed["role"] as string)) {
    // The codec's union would only say "expected Message"; the role is what picks the shape.
    return E.left(`message.role must be one of ${roles.join(", ")}, got ${JSON.stringify(parsed["role"]) ?? "nothing"}`);
  }
  return E.mapLeft((errors: Parameters<typeof describeErrors>[0]) => describeErrors(errors, "message"))(MessageCodec.decode(parsed));
}

/** Encodes summary text for a text column (JSON string literal: lossless for any JS string). */
export const encodeContent = (content: string): string => JSON.stringify(content);

/** Decodes a summary text column. */
export function decodeContent(text: string): Either<string, string> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "string" ? E.right(parsed) : E.left("stored summary content is not a JSON string");
  } catch (e) {
    return E.left(`stored summary content is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}
