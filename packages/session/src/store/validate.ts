/**
 * Boundary checks shared by every store backend, and the lossless row encoding of messages and
 * summaries (JSON text, so lone surrogates and NUL survive any database's text type).
 *
 * @module session/store/validate
 */
import * as E from "fp-ts/lib/Either.js";
import type { Either } from "fp-ts/lib/Either.js";
import { MessagesCodec } from "@cc/messages/internal";
import { MessageCodec, type Message } from "@cc/messages";
import { decodeWith, invalid as invalidShape, type Invalid } from "@cc/validate";
import { MAX_STACK_ID_LENGTH, type StackId, type StoreError, type SummaryDraft } from "./store.js";

const roles: readonly string[] = ["system", "user", "assistant", "tool"];

/** Subject of every rejected store argument. */
export const STORE_INPUT = "store input";

/** A rejected store argument: the @cc/validate `InvalidInput`, its one problem located at `field`. */
const invalid = (field: string, message: string): StoreError =>
  invalidShape("InvalidInput", STORE_INPUT, [{ path: field, field: field.replace(/^.*\./, ""), message }]);

/** True when `s` has a UTF-16 surrogate that is not part of a pair. */
export const hasLoneSurrogate = (s: string): boolean => /\p{Cs}/u.test(s);

/** Accepts a non-empty, well-formed stack id of bounded length. */
export function checkStackId(stackId: unknown): Either<StoreError, StackId> {
  if (typeof stackId !== "string")
    return E.left(invalid("stackId", `stackId: expected a string, got ${typeof stackId}`));
  if (stackId.length === 0) return E.left(invalid("stackId", 'stackId: expected a non-empty string, got ""'));
  if (stackId.length > MAX_STACK_ID_LENGTH) {
    return E.left(
      invalid("stackId", `stackId: expected at most ${MAX_STACK_ID_LENGTH} characters, got ${stackId.length}`),
    );
  }
  if (stackId.includes("\u0000")) return E.left(invalid("stackId", "stackId: expected no NUL characters, got one"));
  if (hasLoneSurrogate(stackId)) {
    return E.left(
      invalid(
        "stackId",
        "stackId: expected well-formed text, got a lone UTF-16 surrogate (databases would silently alter it)",
      ),
    );
  }
  return E.right(stackId);
}

/** Accepts a finite, non-negative clock reading. */
export function checkNow(now: unknown): Either<StoreError, number> {
  return typeof now === "number" && Number.isFinite(now) && now >= 0
    ? E.right(now)
    : E.left(invalid("now", `now: expected a finite, non-negative epoch-milliseconds number, got ${String(now)}`));
}

/** Accepts a non-negative safe integer (an id or a watermark). */
export function checkId(field: string, value: unknown): Either<StoreError, number> {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0
    ? E.right(value)
    : E.left(invalid(field, `${field}: expected a non-negative integer, got ${String(value)}`));
}

const decodeMessagesInput = decodeWith(MessagesCodec, "InvalidInput", STORE_INPUT);

/**
 * Validates messages with the message codec; each problem is located under `messages`
 * (`messages[1].content: expected a string, got 42`).
 */
export function checkMessages(messages: unknown): Either<StoreError, readonly Message[]> {
  return E.mapLeft((failure: Invalid<"InvalidInput">): StoreError =>
    invalidShape(
      "InvalidInput",
      STORE_INPUT,
      failure.problems.map((p) => ({
        ...p,
        path: `messages${p.path}`,
        message: p.path === "" ? p.message.replace(/^value/, "messages") : `messages${p.message}`,
      })),
      failure.more,
    ),
  )(decodeMessagesInput(messages));
}

/** Validates a summary draft: string content (not blank), watermark ≥ 1, previous id null or ≥ 1. */
export function checkDraft(draft: unknown): Either<StoreError, SummaryDraft> {
  if (typeof draft !== "object" || draft === null)
    return E.left(invalid("draft", `draft: expected an object, got ${draft === null ? "null" : typeof draft}`));
  const d = draft as Record<string, unknown>;
  const content = d["content"];
  if (typeof content !== "string")
    return E.left(invalid("draft.content", `draft.content: expected a string, got ${typeof content}`));
  if (content.trim().length === 0)
    return E.left(
      invalid(
        "draft.content",
        "draft.content: expected non-blank text, got a blank string (an empty summary is never saved)",
      ),
    );
  const coversUpTo = d["coversUpTo"];
  if (typeof coversUpTo !== "number" || !Number.isSafeInteger(coversUpTo) || coversUpTo < 1) {
    return E.left(
      invalid("draft.coversUpTo", `draft.coversUpTo: expected a message id (integer ≥ 1), got ${String(coversUpTo)}`),
    );
  }
  const previousId = d["previousId"];
  if (previousId !== null && (typeof previousId !== "number" || !Number.isSafeInteger(previousId) || previousId < 1)) {
    return E.left(
      invalid(
        "draft.previousId",
        `draft.previousId: expected null or a summary id (integer ≥ 1), got ${String(previousId)}`,
      ),
    );
  }
  return E.right({ content, coversUpTo, previousId });
}

/**
 * The watermark rule every backend enforces: a new summary covers at least one message more than
 * the one it supersedes, and no message that does not exist yet.
 */
export function watermarkProblem(
  coversUpTo: number,
  lastMessageId: number,
  previousCoversUpTo: number,
): string | undefined {
  if (coversUpTo > lastMessageId) return `coversUpTo ${coversUpTo} is past the last stored message id ${lastMessageId}`;
  if (coversUpTo <= previousCoversUpTo) {
    return `coversUpTo ${coversUpTo} does not move past the previous summary's watermark ${previousCoversUpTo}`;
  }
  return undefined;
}

/** Encodes a message for a text column. */
export const encodeMessage = (message: Message): string => JSON.stringify(message);

const decodeStoredMessage = decodeWith(MessageCodec, "InvalidInput", "message");

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u);

const isString = (u: unknown): u is string => typeof u === "string";

/** A JSON value as the message codec's `Json` accepts it (finite numbers, no holes). */
function isJson(u: unknown): boolean {
  switch (typeof u) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(u);
    case "object":
      if (u === null) return true;
      if (Array.isArray(u)) {
        for (let i = 0; i < u.length; i++) if (!isJson(u[i])) return false;
        return true;
      }
      return isJsonObject(u);
    default:
      return false;
  }
}

/** A plain object whose values are all JSON (the codec's `t.record(t.string, Json)`). */
function isJsonObject(u: unknown): boolean {
  if (Object.prototype.toString.call(u) !== "[object Object]") return false;
  const o = u as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(o)) if (!isJson(o[key])) return false;
  return true;
}

/** A tool call: `id`, `name`, `arguments`, all strings, and optional JSON objects `extra` and `functionExtra` (the codec's closed `ToolCall`). */
function isToolCall(u: unknown): boolean {
  if (!isRecord(u) || !isString(u["id"]) || !isString(u["name"]) || !isString(u["arguments"])) return false;
  for (const key in u) {
    if (!Object.prototype.hasOwnProperty.call(u, key) || key === "id" || key === "name" || key === "arguments")
      continue;
    if ((key === "extra" || key === "functionExtra") && (u[key] === undefined || isJsonObject(u[key]))) continue;
    return false;
  }
  return true;
}

/** One part of multi-part content: an object with a string `type` (other keys are the provider's). */
const isContentPart = (u: unknown): boolean => isRecord(u) && isString(u["type"]);

/** True for a key every message may carry; `role`-specific keys are checked by {@link isMessageShape}. */
const isMetaKey = (key: string): boolean =>
  key === "role" ||
  key === "content" ||
  key === "id" ||
  key === "timestamp" ||
  key === "name" ||
  key === "parts" ||
  key === "extra";

/** True when `key` is a field of a `role` message. */
function isFieldOf(role: string, key: string): boolean {
  if (isMetaKey(key)) return true;
  switch (role) {
    case "system":
      return key === "developer";
    case "assistant":
      return key === "toolCalls";
    case "tool":
      return key === "toolCallId";
    default:
      return false;
  }
}

/**
 * True when `u` has the shape {@link MessageCodec} accepts: a known role, string content, the
 * optional meta fields (`id` string, `timestamp` finite, `name` string, `parts` an array of
 * objects with a string `type`, `extra` an object of JSON values), a system message's
 * `developer: true`, an assistant's tool calls of exactly three strings, a tool message's call
 * id — and no other key. Written as plain checks so a read of thousands of stored rows allocates
 * nothing per row. Agreement with the codec is a property test.
 *
 * @example
 * isMessageShape({ role: "user", content: "hi" }); // true
 * isMessageShape({ role: "tool", content: "ok" }); // false: no toolCallId
 * isMessageShape({ role: "user", content: "hi", lang: "en" }); // false: unknown key
 */
export function isMessageShape(u: unknown): u is Message {
  if (!isRecord(u) || !isString(u["content"])) return false;
  const role = u["role"];
  if (role !== "system" && role !== "user" && role !== "assistant" && role !== "tool") return false;
  for (const key in u) if (Object.prototype.hasOwnProperty.call(u, key) && !isFieldOf(role, key)) return false;
  const id = u["id"];
  if (id !== undefined && !isString(id)) return false;
  const timestamp = u["timestamp"];
  if (timestamp !== undefined && (typeof timestamp !== "number" || !Number.isFinite(timestamp))) return false;
  const name = u["name"];
  if (name !== undefined && !isString(name)) return false;
  const parts = u["parts"];
  if (parts !== undefined) {
    if (!Array.isArray(parts)) return false;
    for (let i = 0; i < parts.length; i++) if (!isContentPart(parts[i])) return false;
  }
  const extra = u["extra"];
  if (extra !== undefined && !isJsonObject(extra)) return false;
  switch (role) {
    case "system": {
      const developer = u["developer"];
      return developer === undefined || developer === true;
    }
    case "assistant": {
      const calls = u["toolCalls"];
      if (calls === undefined) return true;
      if (!Array.isArray(calls)) return false;
      for (let i = 0; i < calls.length; i++) if (!isToolCall(calls[i])) return false;
      return true;
    }
    case "tool":
      return isString(u["toolCallId"]);
    default:
      return true;
  }
}

/**
 * A row written before the message model was closed may carry keys the model does not know
 * (the old codec kept them). They are moved under `extra`, where the model keeps provider fields,
 * so such a row still loads and nothing in it is lost. `undefined` when that does not make it a
 * valid message.
 */
function fromLegacyRow(row: Readonly<Record<string, unknown>>): Message | undefined {
  const role = row["role"];
  if (typeof role !== "string") return undefined;
  const known: Record<string, unknown> = {};
  const moved: Record<string, unknown> = {};
  for (const key of Object.keys(row)) {
    if (isFieldOf(role, key)) known[key] = row[key];
    else if (key === "developer" || key === "toolCalls" || key === "toolCallId")
      return undefined; // a model field on the wrong role is a fault
    else moved[key] = row[key];
  }
  if (Object.keys(moved).length === 0) return undefined;
  const extra = known["extra"];
  if (extra !== undefined && !isJsonObject(extra)) return undefined;
  const candidate = { ...known, extra: { ...(extra as Record<string, unknown> | undefined), ...moved } };
  return isMessageShape(candidate) ? candidate : undefined;
}

/**
 * Decodes a message column; `Left` carries a readable reason. Well-formed rows take the
 * allocation-free {@link isMessageShape} path; a row with keys the model does not know (written
 * by an earlier version) has them moved under `extra`; only a row still refused goes through the
 * codec, whose errors name the field at fault.
 *
 * @example decodeMessage('{"role":"user","content":"hi","lang":"en"}') // right({ role: "user", content: "hi", extra: { lang: "en" } })
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
    return E.left(
      `message.role must be one of ${roles.join(", ")}, got ${JSON.stringify(parsed["role"]) ?? "nothing"}`,
    );
  }
  const legacy = isRecord(parsed) ? fromLegacyRow(parsed) : undefined;
  if (legacy !== undefined) return E.right(legacy);
  return E.mapLeft((failure: Invalid) => failure.message)(decodeStoredMessage(parsed));
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
