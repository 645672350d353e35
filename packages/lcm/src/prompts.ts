/**
 * The summary prompts of escalation levels 1 (detailed) and 2 (bullet points).
 *
 * @module prompts
 */
import type { Message } from "@cc/messages";
import { wrapTranscript } from "./transcript.js";

/** The LLM escalation levels that use a prompt. */
export type PromptLevel = "detailed" | "bullet";

const DETAILED = [
  "You condense the earlier part of a conversation between a user and an AI agent so the agent can keep working without it.",
  "Write a faithful, self-contained summary in prose. Keep: the user's goal and constraints, decisions made and why,",
  "what was done (files touched with their paths, commands run and their outcomes, errors seen), the current state,",
  "and what remains to do. Quote identifiers, paths and error messages exactly. Do not invent anything.",
].join(" ");

const BULLET = [
  "Condense the earlier part of an agent conversation into short bullet points, one fact per line, starting with '- '.",
  "Keep only what the agent needs to continue: goal, key decisions, files and paths, errors, current state, next steps.",
  "Quote identifiers and paths exactly. No preamble.",
].join(" ");

/**
 * Builds the messages of one summary request for `transcript` (already serialised) within
 * `targetTokens`.
 *
 * @example summaryPrompt("bullet", "[user]\nhi", 100)[0]!.role // "system"
 */
export function summaryPrompt(level: PromptLevel, transcript: string, targetTokens: number): readonly Message[] {
  const instruction = level === "detailed" ? DETAILED : BULLET;
  return [
    { role: "system", content: `${instruction} Stay under ${targetTokens} tokens.` },
    { role: "user", content: `Summarise this conversation so far:\n\n${wrapTranscript(transcript)}` },
  ];
}
