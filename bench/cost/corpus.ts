/**
 * The sessions the cost benchmark replays: every transcript under the data directory
 * (`CC_DATA_DIR`, see .ci/data.ts), read with `readTranscript` from @cc/cli. A mini-swe-agent
 * file the reader refuses only because of roles outside the chat model (its final `exit`
 * record) is read again without those messages, and that is reported; any other refusal is
 * reported and the file left out — never silently. Corpora, tasks, de-duplication and the
 * development / evaluation split are the retention benchmark's (`taskOf`, `dedupe`, `splitOf`
 * of bench/retention/corpora.ts): replays of one task keep the first file by name, and a
 * session's split is decided by the SHA-256 of `corpus:task`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatTranscriptError, fromOpenAIValue, readTranscript } from "@cc/cli";
import type { Message } from "@cc/messages";
import * as E from "fp-ts/lib/Either.js";
import { dedupe, splitOf, taskOf } from "../retention/corpora.js";

/** The development split (selection) or the evaluation split (report). */
export type Split = "dev" | "eval";

/** One transcript to replay. */
export interface CostSession {
  readonly name: string;
  /** The task it solves (`taskOf` of its file name). */
  readonly task: string;
  readonly corpus: string;
  readonly split: Split;
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
  if (typeof doc !== "object" || doc === null || !Array.isArray((doc as { messages?: unknown }).messages))
    return undefined;
  const all = (doc as { messages: unknown[] }).messages;
  const kept = all.filter(
    (m) => typeof m === "object" && m !== null && CHAT_ROLES.has(String((m as { role?: unknown }).role)),
  );
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
  const task = taskOf(file);
  const split = splitOf(corpus, task);
  if (E.isRight(r)) return { name, task, corpus, split, messages: r.right.messages };
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
  return { name, task, corpus, split, messages: again.right.messages };
}

/** Which sessions {@link loadCorpus} keeps. */
export interface CorpusSelection {
  /** The splits to keep. @default both */
  readonly splits?: readonly Split[];
  /** The first sessions (by name) of each corpus and split. @default all */
  readonly limit?: number;
}

/**
 * Reads the three corpora under `dataDir` (named as the retention benchmark names them), drops
 * replays of a task already read (reported in `notes`), then keeps the sessions of the chosen
 * splits, the first `limit` of each corpus and split (quick mode).
 *
 * @example const { sessions, notes } = loadCorpus(dataDir(), { splits: ["dev"], limit: 1 });
 */
export function loadCorpus(dataDir: string, selection: CorpusSelection = {}): LoadedCorpus {
  const dirs: readonly [string, string, RegExp][] = [
    ["swe-agent", join(dataDir, "swe-agent-trajectories"), /\.traj$/],
    ["mini-gemini", join(dataDir, "agent-trajectories", "mini-swe-agent-gemini3pro"), /\.traj\.json$/],
    ["mini-deepseek", join(dataDir, "agent-trajectories", "mini-swe-agent-deepseek"), /\.traj\.json$/],
  ];
  const read: CostSession[] = [];
  const notes: string[] = [];
  for (const [corpus, dir, pattern] of dirs) {
    let files: string[];
    try {
      files = readdirSync(dir)
        .filter((f) => pattern.test(f))
        .sort();
    } catch (e) {
      notes.push(`${dir}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    for (const f of files) {
      const s = readOne(dir, f, corpus, notes);
      if (s !== undefined) read.push(s);
    }
  }
  const id = (s: CostSession): string => `${s.corpus}/${s.name}`;
  const { dropped } = dedupe(read.map((s) => ({ name: id(s), task: s.task, corpus: s.corpus, messages: [] })));
  if (dropped.length > 0)
    notes.push(`${dropped.length} replay(s) of a task already read left out: ${dropped.join(", ")}`);
  const gone = new Set(dropped);
  const splits = new Set(selection.splits ?? ["dev", "eval"]);
  const limit = selection.limit ?? Number.POSITIVE_INFINITY;
  const taken = new Map<string, number>();
  const sessions = read.filter((s) => {
    if (gone.has(id(s)) || !splits.has(s.split)) return false;
    const k = `${s.corpus}:${s.split}`;
    const n = taken.get(k) ?? 0;
    taken.set(k, n + 1);
    return n < limit;
  });
  return { sessions, notes };
}
