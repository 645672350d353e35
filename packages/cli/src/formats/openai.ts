/**
 * Readers for OpenAI chat-completions transcripts: a JSON array of messages (or an object with a
 * `messages` array, e.g. a saved request body) and JSONL with one message per line.
 *
 * @module formats/openai
 */
import * as E from "fp-ts/lib/Either.js";
import { fromOpenAIMessages, type Converted, type Message } from "@cc/messages";
import type { InvalidInput } from "@cc/validate";
import type { TranscriptError } from "./error.js";
import { parseJson } from "./json.js";

/** What a reader returns: the messages and anything odd it tolerated. */
export interface Transcript {
  readonly messages: readonly Message[];
  readonly warnings: readonly string[];
}

/** Converts already-parsed OpenAI messages; problems name `messages[i].field`. */
export function fromOpenAIValue(value: unknown, source: string): E.Either<TranscriptError, Transcript> {
  let list: unknown = value;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    if (!("messages" in value))
      return E.left({
        _tag: "UnrecognisedFormat",
        source,
        detail: "a JSON object needs a `messages` array (or a `history` array for a SWE-agent .traj)",
      });
    list = (value as { readonly messages: unknown }).messages;
  }
  if (!Array.isArray(list))
    return E.left({ _tag: "UnrecognisedFormat", source, detail: "expected a JSON array of chat messages" });
  return E.bimap(
    (e: InvalidInput): TranscriptError => ({ _tag: "InvalidMessages", source, problems: problemLines(e) }),
    toTranscript,
  )(fromOpenAIMessages(list));
}

/** Problem lines of a conversion failure, each located as `messages[i].field`. */
function problemLines(e: InvalidInput): readonly string[] {
  const lines = e.problems.map((p) => (p.message.startsWith("[") ? `messages${p.message}` : p.message));
  return e.more > 0 ? [...lines, `… and ${e.more} more`] : lines;
}

/** The converted messages; each repair the conversion made becomes a transcript warning. */
const toTranscript = (c: Converted): Transcript => ({
  messages: c.messages,
  warnings: c.warnings.map((w) => w.message.replace(/^\[/, "messages[")),
});

/** Reads an OpenAI chat JSON document (array, or object with `messages`). */
export function readOpenAIJson(text: string, source: string): E.Either<TranscriptError, Transcript> {
  if (text.trim() === "") return E.left({ _tag: "EmptyInput", source });
  const parsed = parseJson(text);
  if (E.isLeft(parsed)) return E.left({ _tag: "MalformedJson", source, ...parsed.left });
  return fromOpenAIValue(parsed.right, source);
}

/**
 * Reads JSONL: one OpenAI chat message per non-blank line. A syntax error names its line and
 * column; an invalid message names its line and field (`line 4 (messages[3]).tool_call_id: …`).
 */
export function readJsonl(text: string, source: string): E.Either<TranscriptError, Transcript> {
  if (text.trim() === "") return E.left({ _tag: "EmptyInput", source });
  const values: unknown[] = [];
  const lineOf: number[] = [];
  let offset = 0;
  let lineNo = 0;
  while (offset <= text.length) {
    const nl = text.indexOf("\n", offset);
    const end = nl === -1 ? text.length : nl;
    lineNo++;
    const line = text.slice(offset, end).replace(/\r$/, "");
    if (line.trim() !== "") {
      const parsed = parseJson(line);
      if (E.isLeft(parsed)) {
        const { column } = parsed.left;
        return E.left({ _tag: "MalformedJson", source, line: lineNo, column, detail: parsed.left.detail });
      }
      values.push(parsed.right);
      lineOf.push(lineNo);
    }
    if (nl === -1) break;
    offset = nl + 1;
  }
  const converted = fromOpenAIMessages(values);
  const atLine = (line: string): string =>
    line.replace(/^messages\[(\d+)\]/, (whole, i: string) => {
      const l = lineOf[Number(i)];
      return l === undefined ? whole : `line ${l} (${whole})`;
    });
  if (E.isRight(converted)) {
    const t = toTranscript(converted.right);
    return E.right({ messages: t.messages, warnings: t.warnings.map(atLine) });
  }
  return E.left({ _tag: "InvalidMessages", source, problems: problemLines(converted.left).map(atLine) });
}
