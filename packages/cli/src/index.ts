/**
 * @cc/cli — the `cc-compact` command and the transcript readers it is built on.
 *
 * @example
 * import { readTranscript } from "@cc/cli";
 * import * as E from "fp-ts/lib/Either.js";
 * import { readFileSync } from "node:fs";
 * const r = readTranscript(readFileSync("run.traj", "utf8"), { source: "run.traj" });
 * if (E.isRight(r)) console.log(r.right.messages.length, r.right.warnings);
 *
 * @module @cc/cli
 */
export {
  /** Reads a transcript (OpenAI chat JSON, JSONL or a SWE-agent `.traj`, detected with `auto`) into messages and warnings. */
  readTranscript,
  /** Options of `readTranscript`: the format (default `auto`) and the source name used in errors. */
  type ReadOptions,
  /** A transcript with the concrete format it was read as. */
  type ReadResult,
  /** Transcript formats the readers understand. */
  type TranscriptFormat,
} from "./formats/read.js";
export {
  /** Reads an OpenAI chat JSON document (an array, or an object with `messages`). */
  readOpenAIJson,
  /** Reads JSONL, one OpenAI chat message per line; problems name their line. */
  readJsonl,
  /** Converts already-parsed OpenAI messages (an array, or an object with `messages`). */
  fromOpenAIValue,
  /** What a reader returns: the messages and what it tolerated or repaired. */
  type Transcript,
} from "./formats/openai.js";
export {
  /** Reads a SWE-agent `.traj` document. */
  readTraj,
  /** Converts an already-parsed SWE-agent trajectory. */
  fromTrajValue,
} from "./formats/traj.js";
export {
  /** One human-readable paragraph for a `TranscriptError`, starting with the source. */
  formatTranscriptError,
  /** Why a transcript could not be read. */
  type TranscriptError,
  /** The input held nothing but whitespace. */
  type EmptyInput,
  /** The input is not valid JSON; names line and column. */
  type MalformedJson,
  /** The JSON is well-formed but its messages are not; names line or index and field. */
  type InvalidMessages,
  /** The JSON has a shape none of the readers knows. */
  type UnrecognisedFormat,
} from "./formats/error.js";
export {
  /** Runs `cc-compact` with the given arguments and effects; resolves to the exit code, never rejects. */
  main,
  /** The process's real effects (stdin, stdout, stderr, environment, clock). */
  processIo,
  /** The effects `main` uses. */
  type CliIo,
} from "./main.js";
export {
  /** The exit codes of `cc-compact`. */
  ExitCode,
  /** One of the `ExitCode` values. */
  type ExitCodeValue,
} from "./command/exit-codes.js";
export {
  /** Parses a command line into a validated command. */
  parseCommand,
  /** The `--help` text. */
  HELP,
  /** A parsed command line. */
  type Command,
  /** `cc-compact [compact] [file]`. */
  type CompactCommand,
  /** `cc-compact search --index FILE QUERY`. */
  type SearchCommand,
  /** `cc-compact expand --index FILE ID`. */
  type ExpandCommand,
  /** A wrong command line, with what to fix. */
  type UsageError,
} from "./command/args.js";
export {
  /** The human report of one compaction turn. */
  formatReport,
  /** What the report says about the input besides the turn. */
  type ReportInput,
} from "./command/report.js";
export type { McpCommand } from "./command/args.js";
export type { ServeIo } from "./main.js";
