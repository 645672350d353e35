/**
 * Why a transcript could not be read. Every variant names its `source` (a path, `stdin`, or
 * `input`) and, where it applies, the line and field of the first problem.
 *
 * @module formats/error
 */

import type { InvalidOptions } from "@cc/validate";

/** The input held nothing but whitespace. */
export interface EmptyInput {
  readonly _tag: "EmptyInput";
  readonly source: string;
}

/** The input is not valid JSON (for JSONL: one of its lines is not). Lines and columns are 1-based. */
export interface MalformedJson {
  readonly _tag: "MalformedJson";
  readonly source: string;
  readonly line: number;
  readonly column: number;
  readonly detail: string;
}

/** The JSON is well-formed but its messages are not; each problem names the line or index and field. */
export interface InvalidMessages {
  readonly _tag: "InvalidMessages";
  readonly source: string;
  readonly problems: readonly string[];
}

/** The JSON has a shape none of the readers knows (e.g. an object without `messages` or `history`). */
export interface UnrecognisedFormat {
  readonly _tag: "UnrecognisedFormat";
  readonly source: string;
  readonly detail: string;
}

/** Why {@link readTranscript} failed. */
export type TranscriptError = EmptyInput | MalformedJson | InvalidMessages | UnrecognisedFormat | InvalidOptions;

/**
 * One human-readable paragraph for a {@link TranscriptError}, starting with the source.
 *
 * @example
 * formatTranscriptError({ _tag: "MalformedJson", source: "a.jsonl", line: 3, column: 7, detail: "Unexpected token" })
 * // "a.jsonl:3:7: malformed JSON: Unexpected token"
 */
export function formatTranscriptError(e: TranscriptError): string {
  switch (e._tag) {
    case "EmptyInput":
      return `${e.source}: empty input (expected OpenAI chat JSON, JSONL or a SWE-agent .traj)`;
    case "MalformedJson":
      return `${e.source}:${e.line}:${e.column}: malformed JSON: ${e.detail}`;
    case "InvalidMessages": {
      const shown = e.problems.slice(0, 10).map((p) => `  ${p}`);
      const more = e.problems.length > 10 ? [`  … and ${e.problems.length - 10} more`] : [];
      return [`${e.source}: invalid messages:`, ...shown, ...more].join("\n");
    }
    case "UnrecognisedFormat":
      return `${e.source}: unrecognised transcript: ${e.detail}`;
    case "InvalidOptions":
      return e.message;
  }
}
