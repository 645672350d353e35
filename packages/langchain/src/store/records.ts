/**
 * How a summary store lays a stack out in a LangGraph `BaseStore`, and the lossless encoding of
 * its records. A stack is one namespace, `[...prefix, label]` (the label is the base64url of the
 * stack id's UTF-8, so any stack id fits LangGraph's label rules), holding:
 *
 * - `head`: `{ format, lastMessageId, summary }` — the commit point of every write: a message or
 *   summary exists once the head counts it;
 * - `message-<id>`: `{ format, id, createdAt, message }`, `message` the message's JSON text;
 * - `summary-<id>`: `{ format, id, content, coversUpTo, previousId, createdAt }`, `content` a JSON
 *   string literal (the chain of every saved summary; the head holds a copy of the newest).
 *
 * Text is stored as JSON text, so lone surrogates and NUL reach the store as ASCII escapes and
 * survive a store that keeps values as JSONB. Records read back are checked; one that does not
 * decode (another writer used the key) is a reason string, never a throw.
 *
 * @module store/records
 */
import * as E from "fp-ts/lib/Either.js";
import type { Either } from "fp-ts/lib/Either.js";
import type { Message } from "@cc/messages";
import type { StoredMessage, StoredSummary } from "@cc/session";
import type { StackId } from "@cc/session/internal";
import { decodeContent, decodeMessage, encodeContent, encodeMessage } from "@cc/session/internal";

/** Version of the record layout, written into every record. */
export const FORMAT = 1;

/** Key of a stack's head record. */
export const HEAD_KEY = "head";

/** Key of message `id`. */
export const messageKey = (id: number): string => `message-${id}`;

/** Key of summary `id`. */
export const summaryKey = (id: number): string => `summary-${id}`;

/** The namespace label of a stack: base64url of its UTF-8 (no ".", ":", NUL; never empty). */
export const stackLabel = (stackId: StackId): string => Buffer.from(stackId, "utf8").toString("base64url");

/** A stack's namespace under `prefix`. */
export const stackNamespace = (prefix: readonly string[], stackId: StackId): string[] => [...prefix, stackLabel(stackId)];

/** A JSON object as a BaseStore holds it. */
export type Value = Record<string, unknown>;

/** What the head of a stack says: the highest message id and the active summary. */
export interface Head {
  readonly lastMessageId: number;
  readonly summary: StoredSummary | null;
}

/** The head of a stack never written to. */
export const EMPTY_HEAD: Head = { lastMessageId: 0, summary: null };

const isObject = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === "object" && u !== null && !Array.isArray(u);
const isId = (u: unknown): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 1;
const isCount = (u: unknown): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 0;
const isClock = (u: unknown): u is number => typeof u === "number" && Number.isFinite(u) && u >= 0;

/** The record of a summary (also the head's copy of the active one). */
export const encodeSummary = (s: StoredSummary): Value => ({
  format: FORMAT,
  id: s.id,
  content: encodeContent(s.content),
  coversUpTo: s.coversUpTo,
  previousId: s.previousId,
  createdAt: s.createdAt,
});

/** The head record. */
export const encodeHead = (head: Head): Value => ({
  format: FORMAT,
  lastMessageId: head.lastMessageId,
  summary: head.summary === null ? null : encodeSummary(head.summary),
});

/** The record of message `id` whose JSON text is `text`. */
export const encodeMessageRecord = (id: number, text: string, createdAt: number): Value => ({ format: FORMAT, id, createdAt, message: text });

/** The JSON text of a message, as stored. */
export const messageText = (message: Message): string => encodeMessage(message);

/** Reads a summary record of stack `stackId`; `Left` is why it is not one. */
export function decodeSummary(stackId: StackId, u: unknown): Either<string, StoredSummary> {
  if (!isObject(u)) return E.left("summary record is not an object");
  if (u["format"] !== FORMAT) return E.left(`summary record has format ${String(u["format"])}, expected ${FORMAT}`);
  const { id, content, coversUpTo, previousId, createdAt } = u;
  if (!isId(id)) return E.left(`summary record id is not an integer ≥ 1: ${String(id)}`);
  if (typeof content !== "string") return E.left("summary record content is not a string");
  if (!isId(coversUpTo)) return E.left(`summary record coversUpTo is not an integer ≥ 1: ${String(coversUpTo)}`);
  if (previousId !== null && !isId(previousId)) return E.left(`summary record previousId is neither null nor an integer ≥ 1: ${String(previousId)}`);
  if (!isClock(createdAt)) return E.left(`summary record createdAt is not a finite non-negative number: ${String(createdAt)}`);
  return E.map((text: string): StoredSummary => ({ stackId, id, content: text, coversUpTo, previousId, createdAt }))(decodeContent(content));
}

/**
 * The value of an item a BaseStore returned: `null` when there is no item, `Left` when what came
 * back is not an item (`{ value: {…}, … }`).
 */
export function itemValue(item: unknown): Either<string, Readonly<Record<string, unknown>> | null> {
  if (item === null || item === undefined) return E.right(null);
  if (!isObject(item)) return E.left("the store returned something that is not an item");
  const value = item["value"];
  return isObject(value) ? E.right(value) : E.left("the item's value is not an object");
}

/** Reads the head record (`null`: the stack was never written to); `Left` is why it is not one. */
export function decodeHead(stackId: StackId, u: Readonly<Record<string, unknown>> | null): Either<string, Head> {
  if (u === null) return E.right(EMPTY_HEAD);
  if (u["format"] !== FORMAT) return E.left(`head record has format ${String(u["format"])}, expected ${FORMAT}`);
  const last = u["lastMessageId"];
  if (!isCount(last)) return E.left(`head record lastMessageId is not a non-negative integer: ${String(last)}`);
  const summary = u["summary"];
  if (summary === null) return E.right({ lastMessageId: last, summary: null });
  return E.chain((s: StoredSummary): Either<string, Head> => (s.coversUpTo > last ? E.left(`head record summary covers ${s.coversUpTo}, past the last message ${last}`) : E.right({ lastMessageId: last, summary: s })))(
    E.mapLeft((why: string) => `head record: ${why}`)(decodeSummary(stackId, summary)),
  );
}

/** Reads the record stored under message `id`'s key; `Left` is why it is not that message. */
export function decodeMessageRecord(stackId: StackId, id: number, u: Readonly<Record<string, unknown>> | null): Either<string, StoredMessage> {
  if (u === null) return E.left(`message ${id} is missing (the head counts it)`);
  if (u["format"] !== FORMAT) return E.left(`message record has format ${String(u["format"])}, expected ${FORMAT}`);
  if (u["id"] !== id) return E.left(`message record under the key of id ${id} has id ${String(u["id"])}`);
  const createdAt = u["createdAt"];
  if (!isClock(createdAt)) return E.left(`message record createdAt is not a finite non-negative number: ${String(createdAt)}`);
  const text = u["message"];
  if (typeof text !== "string") return E.left("message record message is not JSON text");
  return E.map((message: Message): StoredMessage => ({ stackId, id, message, createdAt }))(decodeMessage(text));
}
