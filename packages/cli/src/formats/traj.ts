/**
 * Reader for SWE-agent trajectories (`.traj`): a JSON object whose `history` array holds
 * `{ role, content, tool_calls?, tool_call_ids?, … }` entries. `tool_calls` / `tool_call_ids` may be
 * JSON lists or strings holding a Python `repr` of one; both are accepted (parsed, never evaluated).
 *
 * Tolerance: an entry that cannot become a message is skipped with a warning naming
 * `history[i].field`; a tool result without a known call becomes a user message (with a warning),
 * so the message list always keeps calls and results paired. A call id may be reused once its
 * result has arrived (SWE-agent replays do this); a second call with an id still awaiting its result
 * is dropped with a warning. Nothing is dropped silently.
 *
 * @module formats/traj
 */
import * as E from "fp-ts/lib/Either.js";
import type { Message, ToolCall } from "@cc/messages";
import type { TranscriptError } from "./error.js";
import { parseJson } from "./json.js";
import type { Transcript } from "./openai.js";
import { inexactNumbers, literalJson, LiteralNumber, readPythonLiteral, type InexactNumber } from "./python-literal.js";

type Rec = Readonly<Record<string, unknown>>;

const isRecord = (u: unknown): u is Rec => typeof u === "object" && u !== null && !Array.isArray(u);

/** Text of a content field: a string, or a list of `{ type: "text", text }` parts. */
function contentText(u: unknown): string | undefined {
  if (typeof u === "string") return u;
  if (u === null || u === undefined) return "";
  if (Array.isArray(u)) {
    const parts: string[] = [];
    for (const p of u as readonly unknown[]) {
      if (typeof p === "string") parts.push(p);
      else if (isRecord(p) && typeof p["text"] === "string") parts.push(p["text"]);
      else return undefined;
    }
    return parts.join("");
  }
  return undefined;
}

/** A list given as JSON or as a Python-repr string. */
function listField(u: unknown, where: string, warnings: string[]): readonly unknown[] | undefined {
  if (u === undefined || u === null) return undefined;
  if (Array.isArray(u)) return u;
  if (typeof u === "string") {
    if (u.trim() === "") return [];
    const parsed = readPythonLiteral(u);
    if (E.isLeft(parsed)) {
      warnings.push(`${where}: not a Python literal (${parsed.left.message} at offset ${parsed.left.offset}); ignored`);
      return undefined;
    }
    for (const n of inexactNumbers(parsed.right)) warnings.push(inexactWarning(where, n));
    if (Array.isArray(parsed.right)) return parsed.right as readonly unknown[];
    warnings.push(`${where}: expected a list, got ${typeof parsed.right}; ignored`);
    return undefined;
  }
  warnings.push(`${where}: expected a list or a string, got ${typeof u}; ignored`);
  return undefined;
}

/**
 * The warning for a number of a Python literal that a double does not hold exactly, naming
 * where it is (`history[3].tool_calls[0].function.arguments.n`) and what the reader did with it.
 */
function inexactWarning(where: string, n: InexactNumber): string {
  const json =
    n.reason === "infinite" || n.reason === "not a number"
      ? "written as null in JSON text (JSON has no such number)"
      : "its exact digits are kept in JSON text (tool-call arguments)";
  return `${where}${n.path}: the number ${n.text} is ${n.reason === "infinite" || n.reason === "not a number" ? n.reason : `${n.reason}, read as ${String(n.value)}`}; ${json} (offset ${n.offset})`;
}

function toolCall(u: unknown, where: string, warnings: string[]): ToolCall | undefined {
  const fn = isRecord(u) ? u["function"] : undefined;
  if (!isRecord(u) || !isRecord(fn) || u instanceof LiteralNumber || fn instanceof LiteralNumber) {
    warnings.push(`${where}: not a function call; dropped`);
    return undefined;
  }
  const id = u["id"];
  const name = fn["name"];
  const args = fn["arguments"];
  if (typeof id !== "string" || id === "") {
    warnings.push(`${where}.id: missing; call dropped`);
    return undefined;
  }
  if (typeof name !== "string") {
    warnings.push(`${where}.function.name: missing; call dropped`);
    return undefined;
  }
  // A dict of arguments becomes JSON text with every number's exact digits (see literalJson).
  const argText =
    typeof args === "string"
      ? args
      : args === undefined
        ? "{}"
        : literalJson(args as Parameters<typeof literalJson>[0]);
  return { id, name, arguments: argText };
}

/** Converts one history entry; pushes at most one message. */
function convertEntry(
  raw: unknown,
  i: number,
  knownCalls: Map<string, string>,
  out: Message[],
  warnings: string[],
): void {
  const at = `history[${i}]`;
  if (!isRecord(raw)) {
    warnings.push(`${at}: not an object; skipped`);
    return;
  }
  const role = raw["role"];
  const content = contentText(raw["content"]);
  if (content === undefined) {
    warnings.push(`${at}.content: not text; entry skipped`);
    return;
  }
  switch (role) {
    case "system":
    case "user":
      out.push({ role, content });
      return;
    case "assistant": {
      const list = listField(raw["tool_calls"], `${at}.tool_calls`, warnings) ?? [];
      const calls: ToolCall[] = [];
      list.forEach((c, k) => {
        const call = toolCall(c, `${at}.tool_calls[${k}]`, warnings);
        if (call === undefined) return;
        if (knownCalls.has(call.id)) {
          warnings.push(
            `${at}.tool_calls[${k}].id: call id ${JSON.stringify(call.id)} is already awaiting a result; call dropped`,
          );
          return;
        }
        knownCalls.set(call.id, call.name);
        calls.push(call);
      });
      out.push(calls.length > 0 ? { role: "assistant", content, toolCalls: calls } : { role: "assistant", content });
      return;
    }
    case "tool": {
      const ids = (listField(raw["tool_call_ids"], `${at}.tool_call_ids`, warnings) ?? []).filter(
        (x): x is string => typeof x === "string",
      );
      const single = raw["tool_call_id"];
      if (typeof single === "string") ids.unshift(single);
      const id = ids.find((x) => knownCalls.has(x));
      if (id === undefined) {
        warnings.push(`${at}.tool_call_ids: no matching earlier tool call; kept as a user message`);
        out.push({ role: "user", content });
        return;
      }
      if (ids.length > 1) warnings.push(`${at}.tool_call_ids: ${ids.length} ids; attached to ${JSON.stringify(id)}`);
      const name = knownCalls.get(id)!;
      knownCalls.delete(id);
      out.push({ role: "tool", content, toolCallId: id, name });
      return;
    }
    default:
      warnings.push(`${at}.role: ${JSON.stringify(role)} is not system, user, assistant or tool; entry skipped`);
  }
}

/** Converts a parsed `.traj` object. */
export function fromTrajValue(value: unknown, source: string): E.Either<TranscriptError, Transcript> {
  if (!isRecord(value))
    return E.left({
      _tag: "UnrecognisedFormat",
      source,
      detail: "a .traj file is a JSON object with a `history` array",
    });
  const history = value["history"];
  if (!Array.isArray(history))
    return E.left({ _tag: "InvalidMessages", source, problems: ["history: expected an array of messages"] });
  const warnings: string[] = [];
  const out: Message[] = [];
  const knownCalls = new Map<string, string>();
  (history as readonly unknown[]).forEach((entry, i) => convertEntry(entry, i, knownCalls, out, warnings));
  for (const [id, name] of knownCalls) warnings.push(`tool call ${JSON.stringify(id)} (${name}) has no result`);
  return E.right({ messages: out, warnings });
}

/** Reads a SWE-agent `.traj` document. */
export function readTraj(text: string, source: string): E.Either<TranscriptError, Transcript> {
  if (text.trim() === "") return E.left({ _tag: "EmptyInput", source });
  const parsed = parseJson(text);
  if (E.isLeft(parsed)) return E.left({ _tag: "MalformedJson", source, ...parsed.left });
  return fromTrajValue(parsed.right, source);
}
