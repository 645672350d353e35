/**
 * Transcript serialisation for a summariser: one readable text with role labels, tool calls with
 * their arguments and tool results with their call id, each part clipped head+tail so a single
 * huge message cannot crowd out the rest.
 *
 * @module transcript
 */
import { clipHeadTail, headOf, omissionMarker } from "./clip.js";
import type { Message } from "@cc/messages";

/**
 * Character limits used when serialising a transcript.
 *
 * @example serialiseTranscript(history, { ...defaultTranscriptLimits, toolResultHead: 1000 } satisfies TranscriptLimits)
 */
export interface TranscriptLimits {
  /** Characters kept from the start of a system/user/assistant message. Default 6000. */
  readonly messageHead: number;
  /** Characters kept from the end of a system/user/assistant message. Default 1500. */
  readonly messageTail: number;
  /** Characters kept from the start of a tool result. Default 4000. */
  readonly toolResultHead: number;
  /** Characters kept from the end of a tool result. Default 1500. */
  readonly toolResultTail: number;
  /** Characters kept of a tool call's argument text. Default 1200. */
  readonly toolArguments: number;
}

/** The default limits: messages 6000+1500, tool results 4000+1500, tool arguments 1200 chars. */
export const defaultTranscriptLimits: TranscriptLimits = {
  messageHead: 6000,
  messageTail: 1500,
  toolResultHead: 4000,
  toolResultTail: 1500,
  toolArguments: 1200,
};

/** Opening tag that delimits a transcript inside a prompt (the offline summariser looks for it). */
export const TRANSCRIPT_OPEN = "<transcript>";
/** Closing tag that delimits a transcript inside a prompt. */
export const TRANSCRIPT_CLOSE = "</transcript>";

/** Wraps a serialised transcript in {@link TRANSCRIPT_OPEN} / {@link TRANSCRIPT_CLOSE}. */
export function wrapTranscript(transcript: string): string {
  return `${TRANSCRIPT_OPEN}\n${transcript}\n${TRANSCRIPT_CLOSE}`;
}

/** Clips tool-call argument text to `max` characters with a visible marker. */
function clipArguments(args: string, max: number): string {
  if (args.length <= max) return args;
  const kept = headOf(args, max);
  return `${kept} ${omissionMarker(args.length - kept.length)}`;
}

/**
 * Serialises one message.
 *
 * @example serialiseMessage({ role: "tool", toolCallId: "c1", name: "bash", content: "ok" })
 * // "[tool result bash #c1]\nok"
 */
export function serialiseMessage(message: Message, limits: TranscriptLimits = defaultTranscriptLimits): string {
  switch (message.role) {
    case "system":
    case "user":
      return `[${message.role}]\n${clipHeadTail(message.content, limits.messageHead, limits.messageTail)}`;
    case "assistant": {
      const parts = [`[assistant]`];
      if (message.content !== "") parts.push(clipHeadTail(message.content, limits.messageHead, limits.messageTail));
      for (const call of message.toolCalls ?? []) {
        parts.push(`→ call ${call.name} #${call.id}: ${clipArguments(call.arguments, limits.toolArguments)}`);
      }
      return parts.join("\n");
    }
    case "tool": {
      const label =
        message.name === undefined
          ? `[tool result #${message.toolCallId}]`
          : `[tool result ${message.name} #${message.toolCallId}]`;
      return `${label}\n${clipHeadTail(message.content, limits.toolResultHead, limits.toolResultTail)}`;
    }
  }
}

/**
 * Serialises `messages` for a summariser: messages separated by a blank line, each labelled with
 * its role; tool calls as `→ call name #id: {args}`; tool results as `[tool result name #id]`.
 * Linear in the input size.
 *
 * @example
 * serialiseTranscript([{ role: "user", content: "fix the test" }, { role: "assistant", content: "done" }])
 * // "[user]\nfix the test\n\n[assistant]\ndone"
 */
export function serialiseTranscript(
  messages: readonly Message[],
  limits: TranscriptLimits = defaultTranscriptLimits,
): string {
  return messages.map((m) => serialiseMessage(m, limits)).join("\n\n");
}
