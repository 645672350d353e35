/**
 * How a summary store lays a stack out in a LangGraph `BaseStore`, and the lossless encoding of
 * its records. Nothing is ever overwritten with different content: every writer writes keys of
 * its own, and the keys several writers may write get identical content. A stack is the namespace
 * `[...prefix, label]` (the label is the base64url of the stack id's UTF-8, so any stack id fits
 * LangGraph's label rules), holding:
 *
 * - `batch-<writer>-<n>`: `{ format, createdAt, messages }`, the JSON texts of one append's
 *   messages, written once by the writer that proposes it;
 * - `log-<k>`: `{ format, slot, value }`, entry `k` of the message log once it is decided: the
 *   batch it holds, its first id and its message count (0: an entry given up, holding nothing);
 * - `summary-<j>`: `{ format, slot, value }`, summary `j` once it is decided;
 *
 * and below it, one namespace per log entry or summary being decided,
 * `[...prefix, label, "log" | "summary", "<k>"]`, holding the ballots of the agreement
 * (`b-<round>-<writer>-<phase>`, see `consensus.ts`).
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
export const FORMAT = 2;

/** A JSON object as a BaseStore holds it. */
export type Value = Record<string, unknown>;

/** The two sequences of a stack: its message log and its summary chain. */
export type Sequence = "log" | "summary";

/** Key of the decided slot `slot` of `sequence` (`log-3`, `summary-1`). */
export const decidedKey = (sequence: Sequence, slot: number): string => `${sequence}-${slot}`;

/** Key of the record holding the messages of one append: unique to its writer. */
export const batchKey = (writer: string, n: number): string => `batch-${writer}-${n}`;

/** The namespace label of a stack: base64url of its UTF-8 (no ".", ":", NUL; never empty). */
export const stackLabel = (stackId: StackId): string => Buffer.from(stackId, "utf8").toString("base64url");

/** A stack's namespace under `prefix`. */
export const stackNamespace = (prefix: readonly string[], stackId: StackId): string[] => [
  ...prefix,
  stackLabel(stackId),
];

/** The namespace of the ballots deciding slot `slot` of `sequence` of the stack in `namespace`. */
export const slotNamespace = (namespace: readonly string[], sequence: Sequence, slot: number): string[] => [
  ...namespace,
  sequence,
  String(slot),
];

const isObject = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u);
const isId = (u: unknown): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 1;
const isCount = (u: unknown): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 0;
const isClock = (u: unknown): u is number => typeof u === "number" && Number.isFinite(u) && u >= 0;

/**
 * An entry of the message log: the messages of `batch` get the ids `firstId … firstId + count - 1`.
 * `batch` is `null` for an entry its writer gave up before it was decided (it holds nothing).
 */
export interface LogEntry {
  readonly batch: string | null;
  readonly firstId: number;
  readonly count: number;
  readonly createdAt: number;
}

/** A summary proposed or decided: `nonce` tells the writer whether the decided one is its own. */
export interface SummaryEntry {
  readonly nonce: string;
  readonly summary: StoredSummary;
}

/** The record of a summary. */
export const encodeSummary = (s: StoredSummary): Value => ({
  id: s.id,
  content: encodeContent(s.content),
  coversUpTo: s.coversUpTo,
  previousId: s.previousId,
  createdAt: s.createdAt,
});

/** The value of a log entry, as proposed and decided. */
export const encodeLogEntry = (e: LogEntry): Value => ({
  batch: e.batch,
  firstId: e.firstId,
  count: e.count,
  createdAt: e.createdAt,
});

/** The value of a summary entry, as proposed and decided. */
export const encodeSummaryEntry = (e: SummaryEntry): Value => ({ nonce: e.nonce, summary: encodeSummary(e.summary) });

/** The record of a decided slot: the same content whoever writes it. */
export const encodeDecided = (slot: number, value: Value): Value => ({ format: FORMAT, slot, value });

/** The record of one append's messages (their JSON texts). */
export const encodeBatch = (texts: readonly string[], createdAt: number): Value => ({
  format: FORMAT,
  createdAt,
  messages: [...texts],
});

/** The JSON text of a message, as stored. */
export const messageText = (message: Message): string => encodeMessage(message);

/** Reads a summary of stack `stackId`; `Left` is why it is not one. */
export function decodeSummary(stackId: StackId, u: unknown): Either<string, StoredSummary> {
  if (!isObject(u)) return E.left("summary is not an object");
  const { id, content, coversUpTo, previousId, createdAt } = u;
  if (!isId(id)) return E.left(`summary id is not an integer ≥ 1: ${String(id)}`);
  if (typeof content !== "string") return E.left("summary content is not a string");
  if (!isId(coversUpTo)) return E.left(`summary coversUpTo is not an integer ≥ 1: ${String(coversUpTo)}`);
  const previous = id === 1 ? null : id - 1;
  if (previousId !== previous)
    return E.left(`summary ${id} has previousId ${String(previousId)}, expected ${String(previous)}`);
  if (!isClock(createdAt)) return E.left(`summary createdAt is not a finite non-negative number: ${String(createdAt)}`);
  return E.map((text: string): StoredSummary => ({
    stackId,
    id,
    content: text,
    coversUpTo,
    previousId: previous,
    createdAt,
  }))(decodeContent(content));
}

/** Reads the value of a log entry; `Left` is why it is not one. */
export function decodeLogEntry(u: unknown): Either<string, LogEntry> {
  if (!isObject(u)) return E.left("log entry is not an object");
  const { batch, firstId, count, createdAt } = u;
  if (batch !== null && typeof batch !== "string") return E.left("log entry batch is neither null nor a key");
  if (!isId(firstId)) return E.left(`log entry firstId is not an integer ≥ 1: ${String(firstId)}`);
  if (!isCount(count) || (batch === null && count !== 0))
    return E.left(`log entry count is not a non-negative integer (0 without a batch): ${String(count)}`);
  if (!isClock(createdAt))
    return E.left(`log entry createdAt is not a finite non-negative number: ${String(createdAt)}`);
  return E.right({ batch, firstId, count, createdAt });
}

/** Reads the value of a summary entry of stack `stackId`; `Left` is why it is not one. */
export function decodeSummaryEntry(stackId: StackId, u: unknown): Either<string, SummaryEntry> {
  if (!isObject(u)) return E.left("summary entry is not an object");
  const nonce = u["nonce"];
  if (typeof nonce !== "string") return E.left("summary entry nonce is not a string");
  return E.map((summary: StoredSummary): SummaryEntry => ({ nonce, summary }))(decodeSummary(stackId, u["summary"]));
}

/** Reads a decided-slot record of slot `slot`: its value; `Left` is why it is not one. */
export function decodeDecided(slot: number, u: Readonly<Record<string, unknown>>): Either<string, unknown> {
  if (u["format"] !== FORMAT) return E.left(`record has format ${String(u["format"])}, expected ${FORMAT}`);
  if (u["slot"] !== slot) return E.left(`record under the key of slot ${slot} has slot ${String(u["slot"])}`);
  return E.right(u["value"]);
}

/** Reads the messages of a batch record holding `count` messages, the first with id `firstId`. */
export function decodeBatch(
  stackId: StackId,
  firstId: number,
  count: number,
  u: Readonly<Record<string, unknown>> | null,
): Either<{ readonly id: number; readonly why: string }, readonly StoredMessage[]> {
  if (u === null)
    return E.left({ id: firstId, why: `the messages from id ${firstId} are missing (the log counts them)` });
  const { format, createdAt, messages } = u;
  if (format !== FORMAT)
    return E.left({ id: firstId, why: `batch record has format ${String(format)}, expected ${FORMAT}` });
  if (!isClock(createdAt))
    return E.left({
      id: firstId,
      why: `batch record createdAt is not a finite non-negative number: ${String(createdAt)}`,
    });
  if (!Array.isArray(messages) || messages.length !== count)
    return E.left({ id: firstId, why: `batch record does not hold ${count} messages` });
  const out: StoredMessage[] = [];
  for (const [i, text] of messages.entries()) {
    if (typeof text !== "string") return E.left({ id: firstId + i, why: "message record message is not JSON text" });
    const m = decodeMessage(text);
    if (E.isLeft(m)) return E.left({ id: firstId + i, why: m.left });
    out.push({ stackId, id: firstId + i, message: m.right, createdAt });
  }
  return E.right(out);
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
