/**
 * The demo's generated sessions, one corpus of the retention benchmark (the transcripts are read
 * by corpora.ts).
 */
import { generateSession } from "@cc/example-agent-loop";
import type { Session } from "./evaluate.js";

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
