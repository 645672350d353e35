import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { formatTranscriptError, readTranscript } from "@cc/cli";
import { firstJsonErrorOffset, parseJson } from "@cc/test-support/cli";
import { numRuns } from "../trajectories.js";

const user = { role: "user", content: "fix src/app.ts" };
const asst = {
  role: "assistant",
  content: null,
  tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: '{"path":"src/app.ts"}' } }],
};
const tool = { role: "tool", tool_call_id: "c1", content: "export const x = 1;" };

describe("readTranscript: OpenAI chat JSON", () => {
  it("reads an array and a request body with messages", () => {
    const expected = [
      { role: "user", content: "fix src/app.ts" },
      {
        role: "assistant",
        content: "",
        extra: { content: null },
        toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"src/app.ts"}' }],
      },
      { role: "tool", content: "export const x = 1;", toolCallId: "c1" },
    ];
    expect(readTranscript(JSON.stringify([user, asst, tool]))).toEqual(
      E.right({ messages: expected, warnings: [], format: "openai-json" }),
    );
    expect(
      readTranscript(JSON.stringify({ model: "gpt-4o", messages: [user, asst, tool] }), { format: "openai-json" }),
    ).toEqual(E.right({ messages: expected, warnings: [], format: "openai-json" }));
  });

  it("names the index and field of an invalid message", () => {
    const r = readTranscript(JSON.stringify([user, { role: "tool", content: "x" }, { role: "wizard" }]), {
      source: "chat.json",
    });
    expect(r).toEqual(
      E.left({
        _tag: "InvalidMessages",
        source: "chat.json",
        problems: [
          "messages[1].tool_call_id: required on a tool message (a string), got undefined",
          'messages[2].role: expected one of system, developer, user, assistant, tool, got "wizard"',
        ],
      }),
    );
  });

  it("names line and column of malformed JSON", () => {
    const r = readTranscript('[\n  {"role": "user",\n   "content": "a",}\n]', { source: "chat.json" });
    expect(r).toEqual(
      E.left({
        _tag: "MalformedJson",
        source: "chat.json",
        line: 3,
        column: 19,
        detail: "Expected double-quoted property name",
      }),
    );
    if (E.isLeft(r))
      expect(formatTranscriptError(r.left)).toBe(
        "chat.json:3:19: malformed JSON: Expected double-quoted property name",
      );
  });

  it("reports the repairs of the conversion as transcript warnings, naming the message (and line in JSONL)", () => {
    const unanswered = [user, asst, { role: "user", content: "go on" }];
    const json = readTranscript(JSON.stringify(unanswered), { source: "chat.json" });
    expect(E.isRight(json) && json.right.warnings).toEqual([
      "messages[1]: call c1 was never answered; a placeholder result was added",
    ]);
    expect(E.isRight(json) && json.right.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
    const jsonl = readTranscript(unanswered.map((m) => JSON.stringify(m)).join("\n\n"), { format: "jsonl" });
    expect(E.isRight(jsonl) && jsonl.right.warnings).toEqual([
      "line 3 (messages[1]): call c1 was never answered; a placeholder result was added",
    ]);
  });

  it("rejects empty input and unknown shapes with a reason", () => {
    expect(readTranscript(" \n\t")).toEqual(E.left({ _tag: "EmptyInput", source: "input" }));
    expect(readTranscript('{"foo": 1}')).toMatchObject(E.left({ _tag: "UnrecognisedFormat" }));
    expect(readTranscript("42")).toMatchObject(E.left({ _tag: "UnrecognisedFormat" }));
  });
});

describe("readTranscript: JSONL", () => {
  const jsonl = [user, asst, tool].map((m) => JSON.stringify(m)).join("\n");

  it("reads one message per line, skipping blank lines and CRLF", () => {
    const r = readTranscript(`\n${jsonl.replace(/\n/g, "\r\n")}\r\n\r\n`);
    expect(E.isRight(r) && r.right.format).toBe("jsonl");
    expect(E.isRight(r) && r.right.messages.length).toBe(3);
  });

  it("names the line of malformed JSON", () => {
    const r = readTranscript(`${JSON.stringify(user)}\n${JSON.stringify(asst)}\n{"role": "tool", "content": }\n`, {
      source: "t.jsonl",
    });
    expect(r).toMatchObject(E.left({ _tag: "MalformedJson", source: "t.jsonl", line: 3, column: 29 }));
  });

  it("names the line and field of an invalid message", () => {
    const r = readTranscript(`${JSON.stringify(user)}\n\n${JSON.stringify({ role: "assistant", content: 7 })}`, {
      format: "jsonl",
    });
    expect(r).toEqual(
      E.left({
        _tag: "InvalidMessages",
        source: "input",
        problems: ["line 3 (messages[1]).content: expected a string, null or an array of parts, got 7"],
      }),
    );
  });

  it("detects a single-line JSONL transcript", () => {
    expect(readTranscript(JSON.stringify(user))).toEqual(
      E.right({ messages: [{ role: "user", content: "fix src/app.ts" }], warnings: [], format: "jsonl" }),
    );
  });

  it("keeps duplicate messages (they are data)", () => {
    const r = readTranscript(`${JSON.stringify(user)}\n${JSON.stringify(user)}`);
    expect(E.isRight(r) && r.right.messages.length).toBe(2);
  });
});

describe("JSON error positions", () => {
  it("the scanner agrees with JSON.parse on validity", () => {
    const jsonish = fc.string({
      unit: fc.constantFrom(
        "{",
        "}",
        "[",
        "]",
        '"',
        ":",
        ",",
        "1",
        "-",
        "e",
        ".",
        "t",
        "r",
        "u",
        "e",
        "n",
        "\\",
        " ",
        "\n",
        "a",
      ),
    });
    fc.assert(
      fc.property(fc.oneof(jsonish, fc.json()), (s) => {
        let valid = true;
        try {
          JSON.parse(s);
        } catch {
          valid = false;
        }
        const off = firstJsonErrorOffset(s);
        expect(off === undefined).toBe(valid);
        if (off !== undefined) expect(off).toBeLessThanOrEqual(s.length);
      }),
      { numRuns },
    );
  });

  it("handles deep nesting without a stack overflow", () => {
    const r = parseJson("[".repeat(200_000));
    expect(E.isLeft(r) && r.left.line).toBe(1);
  });
});

describe("readTranscript never throws", () => {
  it("on arbitrary text in every format", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary" }),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ history: v })),
        ),
        fc.constantFrom("auto", "openai-json", "jsonl", "traj") as fc.Arbitrary<
          "auto" | "openai-json" | "jsonl" | "traj"
        >,
        (text, format) => {
          const r = readTranscript(text, { format });
          if (E.isLeft(r)) expect(formatTranscriptError(r.left).length).toBeGreaterThan(0);
          else expect(Array.isArray(r.right.messages)).toBe(true);
        },
      ),
      { numRuns },
    );
  });

  it("on arbitrary history entries, reporting instead of crashing", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.anything(),
            fc.record({
              role: fc.constantFrom("system", "user", "assistant", "tool", "x"),
              content: fc.oneof(fc.string(), fc.anything()),
              tool_calls: fc.oneof(fc.string(), fc.anything()),
              tool_call_ids: fc.oneof(fc.string(), fc.anything()),
            }),
          ),
        ),
        (history) => {
          const r = readTranscript(JSON.stringify({ history }), { format: "traj" });
          expect(E.isRight(r)).toBe(true);
          if (E.isRight(r))
            expect(r.right.messages.length + r.right.warnings.length).toBeGreaterThanOrEqual(
              history.filter((h) => h !== undefined).length > 0 ? 1 : 0,
            );
        },
      ),
      { numRuns },
    );
  });
});
