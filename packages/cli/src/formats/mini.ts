/**
 * Reader for mini-swe-agent trajectories (`*.traj.json`): a JSON object with
 * `trajectory_format: "mini-swe-agent-…"` and a `messages` array. Two shapes exist:
 *
 * - **text actions** (`mini-swe-agent-1`): the action is the one fenced ```` ```bash ```` block of
 *   an assistant message; the next `user` message is its observation
 *   (`<returncode>N</returncode><output>…</output>`, or the output of the final submit command).
 *   Each such pair becomes an assistant message with one `bash` tool call (id `bash-<i>`,
 *   arguments `{"command": …}`; the content keeps the text around the block) and a `tool` result,
 *   so messages pair as in any tool-calling transcript. An assistant message with zero or several
 *   blocks has no call (the harness answers with a format reminder, kept as a user message).
 * - **tool calls** (`mini-swe-agent-1.1`): OpenAI `tool_calls` answered by `role: "tool"`
 *   messages, read by the OpenAI reader; `reasoning_content` and the harness's `extra` stay in the
 *   message's `extra`; `extra.timestamp` (epoch seconds) becomes `timestamp` (ms); the final
 *   `role: "exit"` message (the submitted patch, not a chat message) is skipped with a warning.
 *
 * @module formats/mini
 */
import * as E from "fp-ts/lib/Either.js";
import type { Message } from "@cc/messages";
import type { TranscriptError } from "./error.js";
import { parseJson } from "./json.js";
import { fromOpenAIValue, type Transcript } from "./openai.js";

type Rec = Readonly<Record<string, unknown>>;

const isRecord = (u: unknown): u is Rec => typeof u === "object" && u !== null && !Array.isArray(u);

/**
 * True when a parsed document is a mini-swe-agent trajectory (its `trajectory_format` names it).
 *
 * @example isMiniTrajectory({ trajectory_format: "mini-swe-agent-1", messages: [] }) // true
 */
export function isMiniTrajectory(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value["trajectory_format"] === "string" &&
    value["trajectory_format"].startsWith("mini-swe-agent") &&
    Array.isArray(value["messages"])
  );
}

const FENCE = /```bash[^\S\n]*\n([\s\S]*?)\n?```/g;

/** The bash blocks of an assistant text, and the text with them taken out. */
export function bashBlocks(text: string): { readonly commands: readonly string[]; readonly rest: string } {
  const commands = [...text.matchAll(FENCE)].map((m) => m[1] ?? "");
  return {
    commands,
    rest: text
      .replace(FENCE, "")
      .replace(/\n{3,}/g, "\n\n")
      .trim(),
  };
}

/** Epoch milliseconds of a `extra.timestamp` in seconds (number or numeric string). */
function timestampOf(raw: unknown): number | undefined {
  const extra = isRecord(raw) ? raw["extra"] : undefined;
  const t = isRecord(extra) ? extra["timestamp"] : undefined;
  const s = typeof t === "number" ? t : typeof t === "string" && t.trim() !== "" ? Number(t) : Number.NaN;
  return Number.isFinite(s) && s >= 0 ? Math.round(s * 1000) : undefined;
}

/** The tool-calling shape: the OpenAI reader, without `exit`, with timestamps. */
function fromToolCalling(messages: readonly unknown[], source: string): E.Either<TranscriptError, Transcript> {
  const warnings: string[] = [];
  const kept: unknown[] = [];
  const times: (number | undefined)[] = [];
  messages.forEach((m, i) => {
    if (isRecord(m) && m["role"] === "exit") {
      warnings.push(`messages[${i}]: role "exit" (the run's submitted patch) is not a chat message; skipped`);
      return;
    }
    kept.push(m);
    times.push(timestampOf(m));
  });
  const r = fromOpenAIValue(kept, source);
  if (E.isLeft(r)) return r;
  // The OpenAI conversion keeps one message per input message in the same order.
  const timed =
    r.right.messages.length === times.length
      ? r.right.messages.map((m, i) => (times[i] === undefined ? m : { ...m, timestamp: times[i] }))
      : r.right.messages;
  return E.right({ messages: timed, warnings: [...warnings, ...r.right.warnings] });
}

/** The text-action shape: fenced bash blocks become tool calls, their observations tool results. */
function fromTextActions(messages: readonly unknown[]): Transcript {
  const warnings: string[] = [];
  const out: Message[] = [];
  /** The action awaiting its observation: call id, position in `out`, the original message. */
  let pending: { readonly id: string; readonly at: number; readonly original: Message } | undefined;
  const unanswered = (where: string): void => {
    if (pending === undefined) return;
    warnings.push(`${where}: the bash action ${pending.id} has no observation; kept as text`);
    out[pending.at] = pending.original;
    pending = undefined;
  };
  messages.forEach((raw, i) => {
    const at = `messages[${i}]`;
    if (!isRecord(raw) || typeof raw["content"] !== "string") {
      warnings.push(`${at}: not a message with text content; skipped`);
      return;
    }
    const content = raw["content"];
    const role = raw["role"];
    const timestamp = timestampOf(raw);
    const meta = timestamp === undefined ? {} : { timestamp };
    if (role === "user" && pending !== undefined) {
      out.push({ role: "tool", content, toolCallId: pending.id, name: "bash", ...meta });
      pending = undefined;
      return;
    }
    unanswered(at);
    switch (role) {
      case "system":
      case "user":
        out.push({ role, content, ...meta });
        return;
      case "assistant": {
        const { commands, rest } = bashBlocks(content);
        const original: Message = { role: "assistant", content, ...meta };
        if (commands.length !== 1) {
          out.push(original);
          return;
        }
        pending = { id: `bash-${i}`, at: out.length, original };
        out.push({
          role: "assistant",
          content: rest,
          toolCalls: [{ id: pending.id, name: "bash", arguments: JSON.stringify({ command: commands[0] }) }],
          ...meta,
        });
        return;
      }
      case "exit":
        warnings.push(`${at}: role "exit" (the run's submitted patch) is not a chat message; skipped`);
        return;
      default:
        warnings.push(`${at}.role: ${JSON.stringify(role)} is not system, user or assistant; skipped`);
    }
  });
  unanswered("end of messages");
  return { messages: out, warnings };
}

/**
 * Converts a parsed mini-swe-agent trajectory (either shape; tool calls when any message has
 * `tool_calls` or `role: "tool"`).
 *
 * @example
 * import { readFileSync } from "node:fs";
 * fromMiniValue(JSON.parse(readFileSync("run.traj.json", "utf8")), "run.traj.json")
 */
export function fromMiniValue(value: unknown, source: string): E.Either<TranscriptError, Transcript> {
  if (!isMiniTrajectory(value))
    return E.left({
      _tag: "UnrecognisedFormat",
      source,
      detail:
        'a mini-swe-agent trajectory is a JSON object with `trajectory_format: "mini-swe-agent…"` and a `messages` array',
    });
  const messages = (value as Rec)["messages"] as readonly unknown[];
  const toolCalling = messages.some(
    (m) => isRecord(m) && (m["role"] === "tool" || (Array.isArray(m["tool_calls"]) && m["tool_calls"].length > 0)),
  );
  return toolCalling ? fromToolCalling(messages, source) : E.right(fromTextActions(messages));
}

/** Reads a mini-swe-agent `.traj.json` document. */
export function readMini(text: string, source: string): E.Either<TranscriptError, Transcript> {
  if (text.trim() === "") return E.left({ _tag: "EmptyInput", source });
  const parsed = parseJson(text);
  if (E.isLeft(parsed)) return E.left({ _tag: "MalformedJson", source, ...parsed.left });
  return fromMiniValue(parsed.right, source);
}
