// Scripted mock-model turns and prompt checks shared by the AI SDK tests (v6 and v7 mocks take
// the same result shapes).
import { fromModelMessages, type SdkMessage, type SdkPart } from "@cc/ai-sdk";
import type { Message } from "@cc/messages";
import { SUMMARY_PREFIX } from "@cc/messages";

export const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

export interface Call {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/** A generate result that calls tools. */
export function callTools(calls: readonly Call[]) {
  return {
    content: calls.map((c) => ({
      type: "tool-call" as const,
      toolCallId: c.id,
      toolName: c.name,
      input: JSON.stringify(c.input),
    })),
    finishReason: { unified: "tool-calls" as const, raw: undefined },
    usage,
    warnings: [],
  };
}

/** A generate result that answers with text. */
export function answer(text: string) {
  return {
    content: [{ type: "text" as const, text }],
    finishReason: { unified: "stop" as const, raw: undefined },
    usage,
    warnings: [],
  };
}

/** A stream result: the same calls or text as stream parts. */
export function streamOf(result: ReturnType<typeof callTools> | ReturnType<typeof answer>) {
  const parts: unknown[] = [{ type: "stream-start", warnings: [] }];
  for (const c of result.content) {
    if (c.type === "tool-call") parts.push(c);
    else
      parts.push(
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: c.text },
        { type: "text-end", id: "t" },
      );
  }
  parts.push({ type: "finish", finishReason: result.finishReason, usage });
  return parts;
}

/** A deterministic text of about `words` words naming `tag` (unique per file). */
export function fileText(tag: string, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(`${tag}_${i % 7}`, ["alpha", "beta", "gamma", "delta"][i % 4]!);
  return `// file ${tag}\n${out.join(" ")}`;
}

const parts = (m: SdkMessage): readonly SdkPart[] => (typeof m.content === "string" ? [] : m.content);
const field = (p: object, k: string): unknown => (p as Readonly<Record<string, unknown>>)[k];

/**
 * Problems of a prompt: a tool result or approval response with no earlier call / request, or an
 * approval request whose call is missing.
 */
export function orphans(prompt: readonly SdkMessage[]): string[] {
  const calls = new Set<string>();
  const approvals = new Set<string>();
  const problems: string[] = [];
  prompt.forEach((m, i) => {
    for (const p of parts(m)) {
      const callId = String(field(p, "toolCallId"));
      const approvalId = String(field(p, "approvalId"));
      if (p.type === "tool-call") calls.add(callId);
      else if (p.type === "tool-approval-request") {
        approvals.add(approvalId);
        if (!calls.has(callId)) problems.push(`[${i}] approval request ${approvalId} without its call ${callId}`);
      } else if (p.type === "tool-result" && m.role === "tool" && !calls.has(callId))
        problems.push(`[${i}] orphaned result ${callId}`);
      else if (
        p.type === "tool-approval-response" &&
        !approvals.has(approvalId) &&
        field(p, "providerExecuted") !== true
      )
        problems.push(`[${i}] orphaned approval ${approvalId}`);
    }
  });
  return problems;
}

/** True when a prompt holds the summary note. */
export const hasNote = (prompt: readonly SdkMessage[]): boolean =>
  fromModelMessages(prompt).some((m: Message) => m.role === "user" && m.content.startsWith(SUMMARY_PREFIX));

/** The ids an eviction note in the prompt lists. */
export function noteIds(prompt: readonly SdkMessage[]): string[] {
  const note = fromModelMessages(prompt).find((m) => m.role === "user" && m.content.startsWith(SUMMARY_PREFIX));
  return note === undefined ? [] : [...note.content.matchAll(/^- (\S+) \(/gm)].map((m) => m[1]!);
}

/** Tool results (json or text output) of a prompt, by tool name. */
export function toolOutputs(prompt: readonly SdkMessage[], toolName: string): unknown[] {
  return prompt
    .flatMap((m) => (m.role === "tool" ? parts(m) : []))
    .filter((p) => p.type === "tool-result" && field(p, "toolName") === toolName)
    .map((p) => field(field(p, "output") as object, "value"));
}

/** The files the scripted agent reads (`src/f0.ts` … `src/f11.ts`, about 110 words each). */
export const FILES: Readonly<Record<string, string>> = Object.fromEntries(
  Array.from({ length: 12 }, (_, i) => [`src/f${i}.ts`, fileText(`f${i}`, 110)]),
);

/** The agent's plan: read two files per step for five steps, then search, expand, answer. */
export function readSearchExpand(
  step: number,
  prompt: readonly SdkMessage[],
): ReturnType<typeof callTools> | ReturnType<typeof answer> {
  if (step < 5)
    return callTools(
      [0, 1].map((k) => ({ id: `c${step}-${k}`, name: "read_file", input: { path: `src/f${step * 2 + k}.ts` } })),
    );
  if (step === 5) return callTools([{ id: "s5", name: "search_context", input: { query: "f0_1" } }]);
  if (step === 6) return callTools([{ id: "e6", name: "expand_context", input: { id: noteIds(prompt)[0] ?? "none" } }]);
  return answer("done");
}

/** A mock model's `doStream` answer: the stream parts of `result`. */
export function streamResult(result: ReturnType<typeof callTools> | ReturnType<typeof answer>): {
  readonly stream: ReadableStream<never>;
} {
  const parts = streamOf(result);
  return {
    stream: new ReadableStream<never>({
      start: (c) => {
        for (const p of parts) c.enqueue(p as never);
        c.close();
      },
    }),
  };
}
