// Shared fixtures: a deterministic file tool, distinct file texts, and input checks.
import { tool, type AgentInputItem } from "@openai/agents";
import { itemKind } from "../src/convert/kinds.js";

/** A distinct, recognisable text of about `words` words for file `name`. */
export function fileText(name: string, words = 60): string {
  const vocab = ["alpha", "bravo", "parser", "header", "column", "quote", "buffer", "token", "stream", "record"];
  const out: string[] = [`# ${name}`];
  for (let i = 0; i < words; i++)
    out.push(`${vocab[(i * 7 + name.length) % vocab.length]}_${name.replace(/\W/g, "")}_${i}`);
  return out.join(" ");
}

/** `read_file`: returns {@link fileText} of the path. */
export const readFile = tool({
  name: "read_file",
  description: "Read a file",
  parameters: {
    type: "object",
    properties: { path: { type: "string" } },
    required: ["path"],
    additionalProperties: false,
  },
  strict: true,
  execute: (input: unknown): string => fileText(String((input as { path: unknown }).path)),
});

/** Call ids of results in `items` with no call carrying that id before them. */
export function orphanedResults(items: readonly AgentInputItem[]): readonly string[] {
  const calls = new Set<string>();
  const orphans: string[] = [];
  for (const item of items) {
    const k = itemKind(item);
    if (k.kind === "call") calls.add(k.callId);
    if (k.kind === "result" && !calls.has(k.callId)) orphans.push(k.callId);
  }
  return orphans;
}

/** Call ids of calls in `items` with no result anywhere in `items`. */
export function unansweredCalls(items: readonly AgentInputItem[]): readonly string[] {
  const results = new Set(
    items.flatMap((i) => {
      const k = itemKind(i);
      return k.kind === "result" ? [k.callId] : [];
    }),
  );
  return items.flatMap((i) => {
    const k = itemKind(i);
    return k.kind === "call" && !results.has(k.callId) ? [k.callId] : [];
  });
}
