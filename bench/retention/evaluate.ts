/**
 * What the replay writes for an evicted message: the text it occupied in the context, made
 * storable by every index backend, and its index summary. The protocol itself is replay.ts.
 */
import { messageTerms, type RuleMessage } from "./reaccess.js";

/** A conversation to replay, before preparation (generated sessions). */
export interface Session {
  readonly name: string;
  /** Where it comes from ("generated", …). */
  readonly source: string;
  readonly messages: readonly RuleMessage[];
}

/** The text a message occupies in the context: content, then each tool call. */
export function contextText(m: RuleMessage): string {
  const calls = (m.toolCalls ?? []).map((c) => `${c.name}(${c.arguments})`);
  return [m.content, ...calls].filter((s) => s !== "").join("\n");
}

/** Makes a string storable by every index backend: lone surrogates → U+FFFD, NUL removed. */
export function storable(s: string): string {
  return s
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")
    .split("\u0000")
    .join("");
}

/**
 * The index summary of an evicted message: role, its first non-empty line (≤ 160 chars) and its
 * terms (≤ 30), so a search for a file, identifier, error or call id finds it.
 *
 * @example summaryOf({ role: "tool", content: "Traceback…\nKeyError: 'x'" }) // "tool: Traceback… | KeyError"
 */
export function summaryOf(m: RuleMessage): string {
  const first = (m.content.split(/\r?\n/).find((l) => l.trim() !== "") ?? "").trim();
  const head = Array.from(first).slice(0, 160).join("");
  const terms = messageTerms(m)
    .slice(0, 30)
    .map((t) => t.text);
  return storable([`${m.role}: ${head}`, ...(terms.length > 0 ? [terms.join(" ")] : [])].join(" | "));
}
