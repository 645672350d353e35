/**
 * The corpora of the retention benchmark, read through @cc/cli's transcript readers:
 * SWE-agent trajectories (`*.traj`), the mini-swe-agent runs (`*.traj.json`, Gemini 3 Pro text
 * actions and DeepSeek tool calls), and the demo's generated sessions. Replays of one task within
 * a corpus are de-duplicated (the first file by name is kept); each session falls in the
 * development or the evaluation split by the SHA-256 of its task's identity alone (`taskSplit`),
 * so one task is never in both splits, whatever corpus replays it. Unreadable files are reported,
 * never dropped silently.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatTranscriptError, readTranscript } from "@cc/cli";
import * as E from "fp-ts/lib/Either.js";
import { sessionClock } from "./clock.js";
import { decodeMessages, type Message } from "@cc/messages";
import { agentReaccesses, groundingTargets, holdings, templateLines, type MetricMessage } from "./metrics.js";
import { neededFacts } from "./needed.js";
import type { PreparedSession } from "./replay.js";

/** A session before preparation. */
export interface RawSession {
  readonly name: string;
  /** The task it solves (replays of one task share it): `taskOf` of the file name. */
  readonly task: string;
  readonly corpus: string;
  readonly messages: readonly MetricMessage[];
  /** A generated session (reported on its own). */
  readonly generated?: boolean;
}

/**
 * The task of a file name: the last `__`-separated part, without the extension
 * (`replay__x__marshmallow-code__marshmallow-1867.traj` → `marshmallow-1867`).
 *
 * @example taskOf("a__b__pydicom-1458.traj") // "pydicom-1458"
 */
export function taskOf(file: string): string {
  const base = file.replace(/\.traj(\.json)?$/, "");
  return base.slice(base.lastIndexOf("__") + 2);
}

/**
 * Development or evaluation by corpus and task: the first hex digit of SHA-256(`corpus:task`)
 * below 8 is development. The cost benchmark's pre-registered split; the retention benchmark
 * splits on the task alone ({@link taskSplit}).
 *
 * @example splitOf("generated", "gen-s1") // "dev" or "eval", the same on every run
 */
export function splitOf(corpus: string, task: string): "dev" | "eval" {
  const h = createHash("sha256").update(`${corpus}:${task}`).digest("hex");
  return parseInt(h[0]!, 16) < 8 ? "dev" : "eval";
}

/**
 * The identity of a task, the same whichever corpus replays it: the repository and issue id of
 * `taskOf`, lower-cased (`marshmallow-1867` for the SWE-agent replays and for any mini-swe-agent
 * run of that issue, `astropy-13453` for `astropy__astropy-13453`).
 *
 * @example taskIdentity("Astropy-13453") // "astropy-13453"
 */
export function taskIdentity(task: string): string {
  return task.trim().toLowerCase();
}

/**
 * Development or evaluation by the task alone: the first hex digit of SHA-256(`taskIdentity`)
 * below 8 is development, so one task never lands in both splits.
 *
 * @example taskSplit("marshmallow-1867") === taskSplit("Marshmallow-1867") // true
 */
export function taskSplit(task: string): "dev" | "eval" {
  const h = createHash("sha256").update(taskIdentity(task)).digest("hex");
  return parseInt(h[0]!, 16) < 8 ? "dev" : "eval";
}

/**
 * Keeps the first session (by name) of each (corpus, task).
 *
 * @example dedupe([{ name: "a", task: "t", … }, { name: "b", task: "t", … }]).map((s) => s.name) // ["a"]
 */
export function dedupe(sessions: readonly RawSession[]): { readonly kept: RawSession[]; readonly dropped: string[] } {
  const seen = new Set<string>();
  const kept: RawSession[] = [];
  const dropped: string[] = [];
  for (const s of [...sessions].sort((a, b) => a.name.localeCompare(b.name))) {
    const key = `${s.corpus}:${s.task}`;
    if (seen.has(key)) dropped.push(s.name);
    else {
      seen.add(key);
      kept.push(s);
    }
  }
  return { kept, dropped };
}

/** Reads every file of `dir` ending in `suffix` as one corpus. */
export function readCorpus(
  dir: string,
  suffix: string,
  corpus: string,
): { readonly sessions: RawSession[]; readonly problems: string[] } {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith(suffix))
      .sort();
  } catch (e) {
    return { sessions: [], problems: [`${dir}: ${e instanceof Error ? e.message : String(e)}`] };
  }
  const sessions: RawSession[] = [];
  const problems: string[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(join(dir, f), "utf8");
    } catch (e) {
      problems.push(`${f}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    const r = readTranscript(text, { source: f });
    if (E.isLeft(r)) {
      problems.push(formatTranscriptError(r.left));
      continue;
    }
    sessions.push({ name: f.replace(/\.traj(\.json)?$/, ""), task: taskOf(f), corpus, messages: r.right.messages });
  }
  return { sessions, problems };
}

/**
 * Prepares sessions for replay: messages decoded as `@cc/messages` messages, rule kinds, template
 * lines per corpus, the agent's uses (re-accesses, grounding literals, needed facts), one token
 * count per message, the peak running context, the clock (recorded timestamps, else
 * `t0 + j · stepMs`) and the split by task identity.
 *
 * @example prepare(dedupe(raw).kept, count, 1_700_000_000_000, 30_000)
 */
export function prepare(
  sessions: readonly RawSession[],
  count: (m: Message) => number,
  t0: number,
  stepMs: number,
): E.Either<string, PreparedSession[]> {
  const templates = new Map<string, ReadonlySet<string>>();
  for (const corpus of new Set(sessions.map((s) => s.corpus))) {
    templates.set(corpus, templateLines(sessions.filter((s) => s.corpus === corpus).map((s) => s.messages)));
  }
  const out: PreparedSession[] = [];
  for (const s of sessions) {
    const decoded = decodeMessages(s.messages);
    if (E.isLeft(decoded)) return E.left(`${s.name}: ${decoded.left.message}`);
    const messages = decoded.right;
    const template = templates.get(s.corpus) ?? new Set<string>();
    const h = holdings(messages, template);
    const tokens = messages.map((m) => Math.max(0, count(m)));
    out.push({
      name: s.name,
      corpus: s.corpus,
      task: taskIdentity(s.task),
      split: taskSplit(s.task),
      generated: s.generated === true,
      messages,
      kinds: h.kinds,
      template,
      reaccesses: agentReaccesses(messages, h),
      grounding: groundingTargets(messages, h),
      needed: neededFacts(messages, h.kinds),
      tokens,
      times: sessionClock(messages, t0, stepMs).times,
      peak: tokens.reduce((a, b) => a + b, 0),
    });
  }
  return E.right(out);
}
