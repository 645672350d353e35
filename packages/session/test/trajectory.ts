// A tolerant reader of the SWE-agent trajectories in the repository's test corpus (.ci/corpus): enough
// of the Python-literal tool_calls strings to recover each call's id, name and arguments.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Message, ToolCall } from "@cc/messages";
import { corpusPath } from "../../../.ci/data.js";

/** The corpus trajectories directory (`.ci/corpus/swe-agent-trajectories`). */
export const trajectoriesDir = corpusPath("swe-agent-trajectories");

const unescape = (s: string): string =>
  s.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c));
const CALL = /'arguments':\s*'((?:[^'\\]|\\.)*)',\s*'name':\s*'([^']*)'\},\s*'id':\s*'([^']*)'/g;

function calls(value: unknown): ToolCall[] | undefined {
  if (typeof value === "string")
    return [...value.matchAll(CALL)].map((m) => ({ id: m[3]!, name: m[2]!, arguments: unescape(m[1]!) }));
  if (!Array.isArray(value)) return undefined;
  const out: ToolCall[] = [];
  for (const item of value as { id?: unknown; function?: { name?: unknown; arguments?: unknown } }[]) {
    const name = item.function?.name;
    const args = item.function?.arguments;
    if (typeof item.id !== "string" || typeof name !== "string") return undefined;
    out.push({ id: item.id, name, arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}) });
  }
  return out;
}

function firstId(value: unknown): string | undefined {
  if (typeof value === "string") return /'([^']+)'/.exec(value)?.[1];
  return Array.isArray(value) && typeof value[0] === "string" ? value[0] : undefined;
}

/** The messages of a function-calling trajectory; entries it cannot read are counted, not thrown. */
export function readTrajectory(file: string): { readonly messages: Message[]; readonly unreadable: number } {
  const parsed = JSON.parse(readFileSync(join(trajectoriesDir, file), "utf8")) as { history?: unknown };
  const history = Array.isArray(parsed.history) ? (parsed.history as Record<string, unknown>[]) : [];
  const messages: Message[] = [];
  let unreadable = 0;
  for (const entry of history) {
    const content = typeof entry["content"] === "string" ? entry["content"] : undefined;
    if (content === undefined) {
      unreadable++;
      continue;
    }
    const toolCalls = calls(entry["tool_calls"]);
    if (entry["role"] === "assistant" && toolCalls !== undefined) {
      messages.push({ role: "assistant", content, toolCalls });
    } else if (entry["role"] === "tool") {
      const id = firstId(entry["tool_call_ids"]);
      if (id === undefined) unreadable++;
      else messages.push({ role: "tool", content, toolCallId: id });
    } else if (entry["role"] === "user" || entry["role"] === "assistant" || entry["role"] === "system") {
      messages.push({ role: entry["role"], content });
    } else unreadable++;
  }
  return { messages, unreadable };
}
