/**
 * What each `AgentInputItem` kind of the OpenAI Agents SDK is to the compactor: a message, a
 * reasoning item, a call that issues a `callId`, a result that answers one, or an opaque item.
 * Items are read as plain records, so a kind this version of the SDK does not know is still
 * classified (as opaque) and never dropped.
 *
 * @module convert/kinds
 */
import type { AgentInputItem } from "@openai/agents";

/** A plain record view of an item (what the SDK serialises). */
export type ItemRecord = Readonly<Record<string, unknown>>;

/**
 * How an item takes part in compaction.
 *
 * @example
 * itemKind({ type: "function_call_result", callId: "c1", name: "ls", status: "completed", output: "a.py" })
 * // { kind: "result", callId: "c1", name: "ls", text: "a.py" }
 */
export type ItemKind =
  | { readonly kind: "message"; readonly role: "user" | "assistant" | "system"; readonly text: string }
  | { readonly kind: "reasoning"; readonly text: string }
  | { readonly kind: "call"; readonly callId: string; readonly name: string; readonly arguments: string }
  | { readonly kind: "result"; readonly callId: string; readonly name: string; readonly text: string }
  | { readonly kind: "opaque"; readonly text: string };

/** Item types that issue a call answered by a later item with the same `callId`. */
export const CALL_TYPES: Readonly<Record<string, string>> = {
  function_call: "function",
  computer_call: "computer",
  shell_call: "shell",
  apply_patch_call: "apply_patch",
  program: "program",
  tool_search_call: "tool_search",
};

/** Item types that answer a call by `callId`. */
export const RESULT_TYPES: Readonly<Record<string, string>> = {
  function_call_result: "function",
  computer_call_result: "computer",
  shell_call_output: "shell",
  apply_patch_call_output: "apply_patch",
  program_output: "program",
  tool_search_output: "tool_search",
};

const isRecord = (u: unknown): u is ItemRecord => typeof u === "object" && u !== null && !Array.isArray(u);
const str = (u: unknown): string | undefined => (typeof u === "string" ? u : undefined);

/** JSON text of a value; never throws (a cycle or a BigInt gives a placeholder). */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (v instanceof Uint8Array ? `[${v.byteLength} bytes]` : v)) ?? "";
  } catch {
    return "[unserialisable value]";
  }
}

/** Text of one content part (text parts verbatim; images, files and audio as a short marker). */
function partText(part: unknown): string {
  if (typeof part === "string") return part;
  if (!isRecord(part)) return "";
  switch (part["type"]) {
    case "input_text":
    case "output_text":
    case "text":
    case "reasoning_text":
      return str(part["text"]) ?? "";
    case "refusal":
      return str(part["refusal"]) ?? "";
    case "input_image":
    case "image":
      return "[image]";
    case "input_file":
    case "file":
      return `[file${typeof part["filename"] === "string" ? ` ${part["filename"]}` : ""}]`;
    case "audio":
      return str(part["transcript"]) ?? "[audio]";
    default:
      return jsonText(part);
  }
}

/** Text of content that is a string, one part or an array of parts. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map(partText)
      .filter((s) => s !== "")
      .join("\n");
  return partText(content);
}

/** The call id of an item (`callId`, or `call_id` on tool search items); `undefined` when absent or null. */
export function callIdOf(item: ItemRecord): string | undefined {
  return str(item["callId"]) ?? str(item["call_id"]);
}

function callArguments(item: ItemRecord): string {
  switch (item["type"]) {
    case "function_call":
      return str(item["arguments"]) ?? "";
    case "program":
      return str(item["code"]) ?? "";
    case "computer_call":
      return jsonText(item["actions"] ?? item["action"] ?? null);
    case "shell_call":
      return jsonText(item["action"] ?? null);
    case "apply_patch_call":
      return jsonText(item["operation"] ?? null);
    default:
      return jsonText(item["arguments"] ?? null);
  }
}

function resultText(item: ItemRecord): string {
  const output = item["output"];
  switch (item["type"]) {
    case "shell_call_output":
      return Array.isArray(output)
        ? output
            .map((o) =>
              isRecord(o) ? [str(o["stdout"]) ?? "", str(o["stderr"]) ?? ""].filter((s) => s !== "").join("\n") : "",
            )
            .join("\n")
        : "";
    case "computer_call_result":
      return "[screenshot]";
    case "tool_search_output":
      return jsonText(item["tools"] ?? []);
    default:
      return output === undefined ? "" : contentText(output);
  }
}

/**
 * Classifies an item. A call or result without a string call id (a server-side tool search has
 * `call_id: null`) is opaque, so it stands alone.
 *
 * @example
 * itemKind({ type: "function_call", callId: "c1", name: "ls", arguments: "{}" })
 * // { kind: "call", callId: "c1", name: "ls", arguments: "{}" }
 */
export function itemKind(item: AgentInputItem | ItemRecord): ItemKind {
  const r: ItemRecord = isRecord(item) ? item : {};
  const type = r["type"];
  const role = r["role"];
  if ((type === undefined || type === "message") && (role === "user" || role === "assistant" || role === "system")) {
    return { kind: "message", role, text: contentText(r["content"]) };
  }
  if (type === "reasoning")
    return {
      kind: "reasoning",
      text: [contentText(r["content"]), contentText(r["rawContent"])].filter((s) => s !== "").join("\n"),
    };
  const callId = callIdOf(r);
  if (typeof type === "string" && callId !== undefined) {
    const callName = CALL_TYPES[type];
    if (callName !== undefined) {
      const name =
        type === "function_call"
          ? [str(r["namespace"]), str(r["name"]) ?? "function"].filter((s) => s !== undefined).join(".")
          : callName;
      return { kind: "call", callId, name, arguments: callArguments(r) };
    }
    const resultName = RESULT_TYPES[type];
    if (resultName !== undefined)
      return { kind: "result", callId, name: str(r["name"]) ?? resultName, text: resultText(r) };
  }
  if (type === "hosted_tool_call") {
    return {
      kind: "opaque",
      text: [`[${str(r["name"]) ?? "hosted tool"}]`, str(r["arguments"]) ?? "", str(r["output"]) ?? ""]
        .filter((s) => s !== "")
        .join("\n"),
    };
  }
  return { kind: "opaque", text: jsonText(item) };
}
