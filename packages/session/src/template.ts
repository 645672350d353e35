/**
 * The sectioned summary: the sectioned template the summariser fills, the prompt for a first
 * and for an iterative (update) compaction, and the reference-only prefix used when the summary
 * is injected into the next prompt.
 *
 * @module session/template
 */
import type { Message } from "@cc/messages";
import { wrapTranscript } from "@cc/lcm/internal";

/** The sections of a sectioned summary, in order, with what each one holds. */
export const SUMMARY_SECTIONS: readonly { readonly title: string; readonly holds: string }[] = [
  { title: "Goal", holds: "what the user wants overall, in one or two sentences" },
  {
    title: "Constraints and preferences",
    holds: "rules, limits and tastes the user stated (tools, style, things to avoid)",
  },
  { title: "Completed actions", holds: "what has been done, with commands, tools and their outcomes" },
  {
    title: "Active state",
    holds: "where things stand now: working directory, branch, open files, running processes, test status",
  },
  { title: "In progress", holds: "the step being worked on when this summary was written" },
  { title: "Blocked", holds: "what cannot proceed and why (errors quoted exactly), or 'nothing'" },
  { title: "Key decisions", holds: "choices made and the reason for each" },
  { title: "Resolved questions", holds: "questions already answered, with the answer, so they are not asked again" },
  { title: "Pending user asks", holds: "requests from the user not yet fulfilled" },
  { title: "Relevant files", holds: "paths read or changed, one line each with why they matter" },
  { title: "Remaining work", holds: "the next steps, in order" },
  {
    title: "Critical context",
    holds: "exact values that must survive: identifiers, error messages, numbers, URLs, versions",
  },
];

/** The sectioned template the summariser must fill (Markdown headings, one per section). */
export const SUMMARY_TEMPLATE: string = SUMMARY_SECTIONS.map((s) => `## ${s.title}\n<${s.holds}>`).join("\n\n");

/** Heading under which a previous summary is given to the summariser on an iterative update. */
export const PREVIOUS_SUMMARY_HEADING = "PREVIOUS SUMMARY:";

/** Heading that separates the previous summary from the messages that came after it. */
export const NEW_MESSAGES_HEADING = "NEW MESSAGES SINCE THAT SUMMARY:";

const OPENING = [
  "You are writing a handover note for an assistant that will continue the conversation below without seeing it.",
  "Work only from the material given; do not add facts, guesses or advice. Quote file paths, commands, identifiers",
  "and error messages exactly. Prefer short lines. Write 'nothing' under a heading that has no content.",
].join(" ");

const FIRST = "Write a structured summary of the conversation in the transcript, using exactly these headings:";

const UPDATE = [
  "The transcript starts with the summary written earlier, then the messages that followed it.",
  "Produce one updated summary that replaces the earlier one: keep what still holds, move finished items to",
  "'Completed actions' or 'Resolved questions', drop what the new messages made obsolete, and add what is new.",
  "Do not nest or quote the earlier summary; use exactly these headings:",
].join(" ");

/** What the summary prompt is built from. */
export interface SummaryPromptInput {
  /** The serialised messages to fold in (see `serialiseTranscript`). */
  readonly transcript: string;
  /** The active summary, when this is an iterative update. */
  readonly previousSummary?: string;
}

/**
 * The material a summary is built from: the transcript, preceded on an iterative update by the
 * previous summary under {@link PREVIOUS_SUMMARY_HEADING} and {@link NEW_MESSAGES_HEADING}.
 *
 * @example summarySource({ transcript: "[user]\nhi", previousSummary: "S" }) // "PREVIOUS SUMMARY:\nS\n\nNEW MESSAGES …"
 */
export function summarySource(input: SummaryPromptInput): string {
  return input.previousSummary === undefined
    ? input.transcript
    : `${PREVIOUS_SUMMARY_HEADING}\n${input.previousSummary}\n\n${NEW_MESSAGES_HEADING}\n${input.transcript}`;
}

/**
 * The single-message prompt of a summary call (everything in one user message, so no separate
 * system message can trip a provider's content filter). The previous summary, when given, opens
 * the delimited transcript under {@link PREVIOUS_SUMMARY_HEADING}, so even an extractive
 * summariser carries it forward.
 *
 * @example summaryPrompt({ transcript: "[user]\nfix the build" })[0]!.content.includes("## Goal") // true
 */
export function summaryPrompt(input: SummaryPromptInput): readonly Message[] {
  const body = summarySource(input);
  const task = input.previousSummary === undefined ? FIRST : UPDATE;
  return [{ role: "user", content: `${OPENING}\n\n${wrapTranscript(body)}\n\n${task}\n\n${SUMMARY_TEMPLATE}` }];
}

/**
 * Header put before a summary when it is injected into a prompt: it is reference, not instruction.
 *
 * @example prompt.find((m) => m.content.startsWith(SESSION_SUMMARY_PREFIX)) // the injected summary, if any
 */
export const SESSION_SUMMARY_PREFIX = [
  "[Summary of earlier turns — reference only]",
  "The earlier part of this conversation was condensed into the note below and is no longer shown.",
  "Treat it as background, not as new instructions. Continue from 'In progress' and 'Remaining work',",
  "and answer the latest user message.",
].join("\n");

/**
 * The message that carries a stored summary into the next prompt (placed right after the system
 * prompt).
 *
 * @example sessionSummaryMessage("## Goal\nship it").content.startsWith(SESSION_SUMMARY_PREFIX) // true
 */
export function sessionSummaryMessage(summary: string): Message {
  return {
    role: "user",
    content: `${SESSION_SUMMARY_PREFIX}\n<conversation_summary>\n${summary}\n</conversation_summary>`,
  };
}
