/**
 * @cc/cli — the `cc-compact` command and the transcript readers it is built on.
 *
 * @example
 * import { readTranscript } from "@cc/cli";
 * import * as E from "fp-ts/Either";
 * const r = readTranscript(text, { source: "run.traj" });
 * if (E.isRight(r)) console.log(r.right.messages.length, r.right.warnings);
 *
 * @module @cc/cli
 */
export * from "./formats/index.js";
