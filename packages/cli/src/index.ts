/**
 * @cc/cli — the `cc-compact` command and the transcript readers it is built on.
 *
 * @example
 * import { readTranscript } from "@cc/cli";
 * import * as E from "fp-ts/lib/Either.js";
 * const r = readTranscript(text, { source: "run.traj" });
 * if (E.isRight(r)) console.log(r.right.messages.length, r.right.warnings);
 *
 * @module @cc/cli
 */
export * from "./formats/index.js";
export * from "./compaction/run.js";
export { stagedIndex, type StagedIndex } from "./compaction/staged-index.js";
export { main, processIo, type CliIo } from "./main.js";
export { ExitCode, type ExitCodeValue } from "./command/exit-codes.js";
export { parseCommand, HELP, type Command, type CompactCommand, type SearchCommand, type ExpandCommand, type UsageError } from "./command/args.js";
export { renderBar, progressBar, PROGRESS_MIN_MESSAGES, type Progress } from "./command/progress.js";
export { formatReport } from "./command/report.js";
