import type { TurnResult } from "@cc/context";
import { describe, expect, it } from "vitest";
import { formatReport, type ReportInput } from "../src/command/report.js";

const input: ReportInput = {
  source: "t.json",
  format: "openai-json",
  messagesIn: 3,
  warnings: [],
  pressure: "hard",
  belowThreshold: false,
};
const turn = (over: Partial<TurnResult>): TurnResult => ({
  messages: [],
  compacted: true,
  strategy: "hierarchical",
  tokensBefore: 2000,
  tokensAfter: 900,
  maxTokens: 1000,
  budgetMet: true,
  evicted: [],
  masked: [],
  recalled: [],
  summary: "",
  warnings: [],
  ...over,
});
const reason = "pinned system messages and the verbatim tail alone exceed the budget";

describe("the report says one true thing about the budget", () => {
  it("budget met: no over-budget note even when a BudgetNotMet warning claims otherwise", () => {
    const text = formatReport(
      turn({ warnings: [{ _tag: "BudgetNotMet", tokens: 1100, maxTokens: 1000, reason }] }),
      input,
    );
    expect(text.match(/budget (NOT )?met/g)).toEqual(["budget met"]);
    expect(text).not.toContain("exceed");
  });

  it("budget NOT met: the verdict and one note with the counts from the result and the warning's reason", () => {
    const text = formatReport(
      turn({
        tokensAfter: 1100,
        budgetMet: false,
        warnings: [{ _tag: "BudgetNotMet", tokens: 1100, maxTokens: 1000, reason }],
      }),
      input,
    );
    expect(text.match(/budget (NOT )?met/g)).toEqual(["budget NOT met"]);
    expect(text.match(/exceed/g)?.length).toBe(2); // the note, whose reason itself says "exceed"
    expect(text).toContain(`  note      1100 tokens exceed the budget of 1000 by 100: ${reason}\n`);
  });

  it("budget NOT met without a warning still says so, with the counts", () => {
    const text = formatReport(turn({ tokensAfter: 1200, budgetMet: false }), input);
    expect(text).toContain("budget NOT met");
    expect(text).toContain("  note      1200 tokens exceed the budget of 1000 by 200\n");
  });
});

describe("policy decisions in the report", () => {
  it("a decision gets one line; a disabled summariser is an alert line; no decision, no line", () => {
    const text = formatReport(
      turn({
        decision: { _tag: "Skipped", reason: "SavingTooSmall", tokens: 2000, saved: 300, minimum: 1024 },
        warnings: [
          { _tag: "SummariserDisabled", error: "ProviderAuthError" },
          { _tag: "EventPublishFailed", event: "CompactionDecided", message: "sink down" },
        ],
      }),
      input,
    );
    expect(text).toContain("  decision  skipped: it would save too little (300 < 1024 tokens)\n");
    expect(text).toContain(
      "  alert     LLM summaries disabled for this session (ProviderAuthError); truncation keeps the budget\n",
    );
    expect(text).toContain("  note      the CompactionDecided event could not be delivered: sink down\n");
    expect(formatReport(turn({}), input)).not.toContain("decision");
  });
});
