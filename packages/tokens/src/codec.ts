/**
 * io-ts codecs for messages that arrive as untyped data (JSON transcripts, HTTP bodies), so bad
 * input is reported with its index and field before anything is counted.
 *
 * @module codec
 */
import type * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { CountableMessage } from "./counter.js";
import { decodeOptions, type InvalidOptions } from "./options.js";

/** A tool call: function name and JSON argument text. */
export const CountableToolCallCodec = t.type({ name: t.string, arguments: t.string }, "CountableToolCall");

/** A chat message as counted by `countMessages`. */
export const CountableMessageCodec = t.intersection(
  [
    t.type({ role: t.string, content: t.string }),
    t.partial({ name: t.string, toolCalls: t.readonlyArray(CountableToolCallCodec), toolCallId: t.string }),
  ],
  "CountableMessage",
);

/** A list of chat messages. */
export const CountableMessagesCodec = t.readonlyArray(CountableMessageCodec, "CountableMessages");

/**
 * Validates untyped `input` as messages. Failures name the index and field, e.g.
 * `1.content: expected string, got 42`.
 *
 * @example
 * decodeMessages(JSON.parse(body)); // Right([...]) or Left({ _tag: "InvalidOptions", errors })
 */
export function decodeMessages(input: unknown): E.Either<InvalidOptions, readonly CountableMessage[]> {
  return decodeOptions(CountableMessagesCodec, input);
}
