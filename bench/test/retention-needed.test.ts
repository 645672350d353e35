import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { actionText, agentText, ruleKinds, type MetricMessage } from "../retention/metrics.js";
import { factLiterals, heldText, neededFacts, recoveryQuery } from "../retention/needed.js";
import { runsFor } from "../../.ci/support/runs.js";

const numRuns = runsFor(200, 1000);

const call = (id: string, command: string): { id: string; name: string; arguments: string } => ({
  id,
  name: "bash",
  arguments: JSON.stringify({ command }),
});

const session: MetricMessage[] = [
  { role: "system", content: "You fix bugs. Files like setup.py matter." },
  { role: "user", content: "ISSUE:\nparse_date fails in src/dates.py with ValueError" },
  { role: "assistant", content: "Look at dates.py", toolCalls: [call("c1", "grep -n parse_date src/dates.py")] },
  {
    role: "tool",
    toolCallId: "c1",
    content: "120:def parse_date(value):\n131:    raise ValueError\nsee helpers/fmt_date.py at 4f3a9c2e",
  },
  {
    role: "assistant",
    content: "",
    extra: { reasoning_content: "line 131 raises" },
    toolCalls: [call("c2", "sed -n 120,140p src/dates.py --quiet")],
  },
  { role: "tool", toolCallId: "c2", content: "ok" },
  { role: "assistant", content: "step", toolCalls: [call("c3", "ls")] },
  { role: "tool", toolCallId: "c3", content: "ok" },
  { role: "assistant", content: "step", toolCalls: [call("c4", "ls")] },
  { role: "tool", toolCallId: "c4", content: "ok" },
  {
    role: "assistant",
    content: "Now the helper",
    toolCalls: [call("c5", "git show 4f3a9c2e -- helpers/fmt_date.py setup.py 7")],
  },
];

describe("needed facts", () => {
  it("reads paths by base name, identifiers, errors, numbers of two digits or more and hex; never flags or one-digit numbers", () => {
    expect([...factLiterals("sed -n 120,160p src/app.py --quiet -k 7 0xDEADBEEF td_field KeyError")].sort()).toEqual([
      "0xdeadbeef",
      "120",
      "160",
      "KeyError",
      "app.py",
      "td_field",
    ]);
    expect(heldText(session[2]!)).toBe("Look at dates.py\ngrep -n parse_date src/dates.py");
  });

  it("counts a literal of an action that came from the task or an observation and never from the agent before", () => {
    expect(neededFacts(session, ruleKinds(session))).toEqual([
      // Message 2: the task's parse_date and dates.py (the agent's own content says dates.py, but
      // in the same message, not an earlier one).
      { at: 2, literal: "parse_date", distant: false },
      { at: 2, literal: "dates.py", distant: false },
      // Message 4: 120 from the observation; 131 is only in the reasoning, 140 and --quiet nowhere
      // earlier; dates.py was already the agent's (message 2).
      { at: 4, literal: "120", distant: false },
      // Message 10: the hash and fmt_date.py were last held by message 3, 7 messages back;
      // setup.py is only in the system prompt (not an origin); 7 has one digit.
      { at: 10, literal: "fmt_date.py", distant: true },
      { at: 10, literal: "4f3a9c2e", distant: true },
    ]);
  });

  it("reads the fenced blocks of a text action and nothing of its prose", () => {
    const text: MetricMessage[] = [
      { role: "user", content: "<pr_description>Fix reader_fn in io_tools.py</pr_description>" },
      { role: "assistant", content: "I will read reader_fn.\n```bash\ncat io_tools.py\n```" },
    ];
    expect(neededFacts(text, ruleKinds(text)).map((f) => f.literal)).toEqual(["io_tools.py"]);
  });

  it("forms the recovery query from the agent's own words without the target", () => {
    expect(recoveryQuery("open src/dates.py near parse_date, line 120", "dates.py", 8)).toBe(
      "parse_date 120 open near line",
    );
    expect(recoveryQuery("x".repeat(3) + " a b c", "zz", 2)).toBe("xxx a");
    const words = agentText(session[10]!);
    for (const f of ["4f3a9c2e", "fmt_date.py"]) expect(recoveryQuery(words, f)).not.toContain(f);
  });

  it("a needed fact is in its action, in an earlier origin, in no earlier agent message, once per session; distant as defined (property)", () => {
    const word = fc.constantFrom(
      "app.py",
      "td_field",
      "KeyError",
      "120",
      "deadbee1",
      "hello",
      "--flag",
      "x.rs",
      "7",
      "ISSUE:",
    );
    const text = fc.array(word, { minLength: 0, maxLength: 6 }).map((w) => w.join(" "));
    const msg = fc.oneof(
      fc.record({ role: fc.constantFrom("user", "tool", "system"), content: text }),
      fc
        .record({ role: fc.constant("assistant"), content: text, args: text })
        .map((m): MetricMessage => ({ role: m.role, content: m.content, toolCalls: [call("c", m.args)] })),
    );
    fc.assert(
      fc.property(fc.array(msg, { maxLength: 16 }), (messages) => {
        const kinds = ruleKinds(messages);
        const facts = neededFacts(messages, kinds);
        const seen = new Set<string>();
        for (const f of facts) {
          expect(kinds[f.at]).toBe("action");
          expect(factLiterals(actionText(messages[f.at]!)).has(f.literal)).toBe(true);
          const before = messages.slice(0, f.at);
          expect(
            before.some(
              (m, i) => (kinds[i] === "task" || kinds[i] === "observation") && factLiterals(heldText(m)).has(f.literal),
            ),
          ).toBe(true);
          expect(before.some((m, i) => kinds[i] === "action" && factLiterals(agentText(m)).has(f.literal))).toBe(false);
          const newest = before
            .map((m, i) => (factLiterals(heldText(m)).has(f.literal) ? i : -1))
            .reduce((a, b) => Math.max(a, b), -1);
          expect(f.distant).toBe(f.at - newest > 4);
          expect(f.literal.startsWith("-")).toBe(false);
          expect(seen.has(f.literal)).toBe(false);
          seen.add(f.literal);
        }
      }),
      { numRuns },
    );
  });
});
