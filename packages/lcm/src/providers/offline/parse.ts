/**
 * Reading a summary request: which level it asks for and the transcript it carries, split back
 * into messages (role, tool name and call id, lines).
 *
 * @module providers/offline/parse
 */
import type { Message } from "@cc/messages";
import { TRANSCRIPT_CLOSE, TRANSCRIPT_OPEN } from "../../transcript.js";

/**
 * The summary style a request asks for: `bullet` when its instructions mention bullet points.
 *
 * @example styleOf([{ role: "system", content: "Summarise as bullet points." }]) // "bullet" (else "detailed")
 */
export type SummaryStyle = "detailed" | "bullet";

/** The role of a transcript block. */
export type BlockRole = "system" | "user" | "assistant" | "tool";

/** One message of a serialised transcript. */
export interface Block {
  readonly role: BlockRole;
  /** Tool name of a tool result, when labelled. */
  readonly name?: string;
  /** Call id of a tool result, when labelled. */
  readonly callId?: string;
  /** The message's lines, trimmed, blank lines dropped. */
  readonly lines: readonly string[];
}

const LABEL = /^\[(system|user|assistant|tool result)(?: ([^\]#\s]+))?(?: ?#([^\]\s]+))?\]$/;

/** The request's style: `bullet` when a system/instruction message mentions bullet points. */
export function styleOf(messages: readonly Message[]): SummaryStyle {
  for (const m of messages) {
    const head = m.content.length > 2000 ? m.content.slice(0, 2000) : m.content;
    if (m.role === "system" && /\bbullet/i.test(head)) return "bullet";
  }
  return "detailed";
}

/** The text the summary is drawn from: the last delimited transcript, else every non-system message. */
export function sourceOf(messages: readonly Message[]): string {
  const body = messages
    .filter((m) => m.role !== "system")
    .map((m) => m.content)
    .join("\n");
  const open = body.lastIndexOf(TRANSCRIPT_OPEN);
  if (open < 0) return body;
  const close = body.indexOf(TRANSCRIPT_CLOSE, open);
  return close > open ? body.slice(open + TRANSCRIPT_OPEN.length, close) : body;
}

/**
 * Splits a serialised transcript into blocks at its role labels (`[user]`, `[tool result bash #c1]` …).
 * Text before the first label (or a text with no label) is one `user` block. Linear.
 *
 * @example parseTranscript("[user]\nfix it\n\n[assistant]\nok")
 * // [{ role: "user", lines: ["fix it"] }, { role: "assistant", lines: ["ok"] }]
 */
export function parseTranscript(source: string): readonly Block[] {
  const blocks: Block[] = [];
  let current: { role: BlockRole; name?: string; callId?: string; lines: string[] } = { role: "user", lines: [] };
  let labelled = false;
  const flush = (): void => {
    if (labelled || current.lines.length > 0) blocks.push(current);
  };
  for (const raw of source.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    const label = line.length <= 200 ? LABEL.exec(line) : null;
    if (label !== null) {
      flush();
      labelled = true;
      const role: BlockRole = label[1] === "tool result" ? "tool" : (label[1] as BlockRole);
      current = {
        role,
        lines: [],
        ...(label[2] === undefined ? {} : { name: label[2] }),
        ...(label[3] === undefined ? {} : { callId: label[3] }),
      };
      continue;
    }
    current.lines.push(line);
  }
  flush();
  return blocks;
}
