import { describe, expect, it } from "vitest";
import {
  SUMMARY_SECTIONS,
  SUMMARY_TEMPLATE,
  NEW_MESSAGES_HEADING,
  PREVIOUS_SUMMARY_HEADING,
} from "@cc/test-support/session";
import { TRANSCRIPT_CLOSE, TRANSCRIPT_OPEN } from "@cc/test-support/lcm";
import { summaryPrompt } from "@cc/session";

describe("summary template", () => {
  it("has the twelve sections, each a Markdown heading", () => {
    expect(SUMMARY_SECTIONS.map((s) => s.title)).toEqual([
      "Goal",
      "Constraints and preferences",
      "Completed actions",
      "Active state",
      "In progress",
      "Blocked",
      "Key decisions",
      "Resolved questions",
      "Pending user asks",
      "Relevant files",
      "Remaining work",
      "Critical context",
    ]);
    for (const s of SUMMARY_SECTIONS) expect(SUMMARY_TEMPLATE).toContain(`## ${s.title}\n`);
  });

  it("a first compaction asks for a new summary of the delimited transcript", () => {
    const [message, ...rest] = summaryPrompt({ transcript: "[user]\nhello 🧠" });
    expect(rest).toEqual([]);
    expect(message!.role).toBe("user");
    expect(message!.content).toContain(`${TRANSCRIPT_OPEN}\n[user]\nhello 🧠\n${TRANSCRIPT_CLOSE}`);
    expect(message!.content).not.toContain(PREVIOUS_SUMMARY_HEADING);
    expect(message!.content).toContain(SUMMARY_TEMPLATE);
  });

  it("an update puts the previous summary first, under its heading, inside the transcript", () => {
    const content = summaryPrompt({ transcript: "[user]\nnew", previousSummary: "## Goal\nold" })[0]!.content;
    expect(content).toContain(
      `${TRANSCRIPT_OPEN}\n${PREVIOUS_SUMMARY_HEADING}\n## Goal\nold\n\n${NEW_MESSAGES_HEADING}\n[user]\nnew\n${TRANSCRIPT_CLOSE}`,
    );
    expect(content).toMatch(/replaces the earlier one/);
  });
});
