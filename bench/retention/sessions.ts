/**
 * Loads the sessions the retention benchmark replays: the demo's generated sessions and the
 * SWE-agent trajectories under
 * `../shared/data/swe-agent-trajectories` (read with `readTranscript` from @cc/cli). Files that
 * cannot be read are reported, never dropped silently.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatTranscriptError, readTranscript } from "@cc/cli";
import { generateSession } from "@cc/example-agent-loop";
import * as E from "fp-ts/lib/Either.js";
import type { Session } from "./evaluate.js";

/** Sessions read, and the files that could not be. */
export interface LoadedSessions {
  readonly sessions: readonly Session[];
  readonly problems: readonly string[];
}

/** Reads every `*.traj` of `dir`, in name order. */
export function loadTrajectories(dir: string): LoadedSessions {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".traj")).sort();
  } catch (e) {
    return { sessions: [], problems: [`${dir}: ${e instanceof Error ? e.message : String(e)}`] };
  }
  const sessions: Session[] = [];
  const problems: string[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(join(dir, f), "utf8");
    } catch (e) {
      problems.push(`${f}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    const r = readTranscript(text, { source: f, format: "traj" });
    if (E.isLeft(r)) {
      problems.push(formatTranscriptError(r.left));
      continue;
    }
    for (const w of r.right.warnings) problems.push(`${f}: ${w}`);
    sessions.push({ name: f.replace(/\.traj$/, ""), source: "swe-agent", messages: r.right.messages });
  }
  return { sessions, problems };
}

/** One generated session: `generateSession` options. */
export interface GeneratedSpec {
  readonly seed: number;
  /** Tool-using turns after the task. */
  readonly turns: number;
  /** Lines of a large tool output. */
  readonly outputLines: number;
}

/**
 * The demo's deterministic sessions (`generateSession` from examples/agent-loop), one per spec,
 * named `gen-s<seed>-t<turns>-l<outputLines>`.
 *
 * @example generatedSessions([{ seed: 1, turns: 12, outputLines: 60 }])[0]?.name // "gen-s1-t12-l60"
 */
export function generatedSessions(specs: readonly GeneratedSpec[]): Session[] {
  return specs.map((s) => ({
    name: `gen-s${s.seed}-t${s.turns}-l${s.outputLines}`,
    source: "generated",
    messages: generateSession({ seed: s.seed, turns: s.turns, outputLines: s.outputLines }).flat(),
  }));
}
