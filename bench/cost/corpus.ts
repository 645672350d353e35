/**
 * The sessions the cost benchmark replays: every transcript under the data directory
 * (`CC_DATA_DIR`, see .ci/data.ts), read with `readTranscript` from @cc/cli. A mini-swe-agent
 * file the reader refuses only because of roles outside the chat model (its final `exit`
 * record) is read again without those messages, and that is reported; any other refusal is
 * reported and the file left out — never silently.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatTranscriptError, fromOpenAIValue, readTranscript } from "@cc/cli";
import type { Message } from "@cc/messages";
import * as E from "fp-ts/lib/Either.js";

/** One transcript to replay. */
export interface CostSession {
  readonly name: string;
  readonly corpus: string;
  readonly messages: readonly Message[];
}

/** Sessions read and what was tolerated or refused on the way. */
export interface LoadedCorpus {
  readonly sessions: readonly CostSession[];
  readonly notes: readonly string[];
}

const CHAT_ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);

/** Messages of a parsed mini-swe-agent document without roles outside the chat model; how many were dropped. */
export function chatMessagesOnly(doc: unknown): { readonly messages: unknown[]; readonly dropped: number } | undefined {
  if (typeof doc !== "object" || doc === null || !Array.isArray((doc as { messages?: unknown }).messages)) return undefined;
  const all = (doc as { messages: unknown[] }).messages;
  const kept = all.filter((m) => typeof m === "object" && m !== null && CHAT_ROLES.has(String((m as { role?: unknown }).role)));
  return { messages: kept, dropped: all.length - kept.length };
}

function readOne(dir: string, file: string, corpus: string, notes: string[]): CostSession | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, file), "utf8");
  } catch (e) {
    notes.push(`${file}: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
  const r = readTranscript(text, { source: file });
  const name = file.replace(/\.traj(\.json)?$/, "");
  if (E.isRight(r)) return { name, corpus, messages: r.right.messages };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    notes.push(formatTranscriptError(r.left));
    return undefined;
  }
  const chat = chatMessagesOnly(doc);
  const again = chat === undefined || chat.dropped === 0 ? undefined : fromOpenAIValue(chat.messages, file);
  if (again === undefined || E.isLeft(again)) {
    notes.push(formatTranscriptError(r.left).split("\n").slice(0, 2).join(" "));
    return undefined;
  }
  notes.push(`${file}: ${chat!.dropped} message(s) with a role outside the chat model left out`);
  return { name, corpus, messages: again.right.messages };
}

/**
 * Reads the three corpora under `dataDir`; `limit` keeps the first files of each (quick mode).
 *
 * @example const { sessions, notes } = loadCorpus(dataDir(), 3);
 */
export function loadCorpus(dataDir: string, limit = Number.POSITIVE_INFINITY): LoadedCorpus {
  const dirs: readonly [string, string, RegExp][] = [
    ["swe-agent", join(dataDir, "swe-agent-trajectories"), /\.traj$/],
    ["mini-swe-agent-gemini3pro", join(dataDir, "agent-trajectories", "mini-swe-agent-gemini3pro"), /\.traj\.json$/],
    ["mini-swe-agent-deepseek", join(dataDir, "agent-trajectories", "mini-swe-agent-deepseek"), /\.traj\.json$/],
  ];
  const sessions: CostSession[] = [];
  const notes: string[] = [];
  for (const [corpus, dir, pattern] of dirs) {
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => pattern.test(f)).sort();
    } catch (e) {
      notes.push(`${dir}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    for (const f of files.slice(0, limit)) {
      const s = readOne(dir, f, corpus, notes);
      if (s !== undefined) sessions.push(s);
    }
  }
  return { sessions, notes };
}
