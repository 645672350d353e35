/**
 * `readTranscript`: one entry point for every transcript format, with format detection.
 *
 * @module formats/read
 */
import * as E from "fp-ts/lib/Either.js";
import type { TranscriptError } from "./error.js";
import { parseJson } from "./json.js";
import { fromOpenAIValue, readJsonl, readOpenAIJson, type Transcript } from "./openai.js";
import { fromMiniValue, isMiniTrajectory, readMini } from "./mini.js";
import { fromTrajValue, readTraj } from "./traj.js";
import { decodeWith, leaf, objectCodec } from "@cc/validate";

/** Transcript formats the readers understand. `auto` detects from the source name, then the text. */
export type TranscriptFormat = "openai-json" | "jsonl" | "traj" | "mini-swe-agent" | "auto";

/** Options of {@link readTranscript}. `source` names the input in errors (a path, or `stdin`). */
export interface ReadOptions {
  readonly format?: TranscriptFormat;
  readonly source?: string;
}

const FORMATS: readonly TranscriptFormat[] = ["openai-json", "jsonl", "traj", "mini-swe-agent", "auto"];

/** io-ts codec of {@link ReadOptions} (closed). */
export const ReadOptionsCodec = objectCodec(
  "ReadOptions",
  {},
  {
    format: leaf("TranscriptFormat", `one of ${FORMATS.join(", ")}`, (u): u is TranscriptFormat =>
      FORMATS.includes(u as TranscriptFormat),
    ),
    source: leaf("Source", "a non-empty string", (u): u is string => typeof u === "string" && u !== ""),
  },
  { expected: "an options object" },
);

const decodeReadOptions = decodeWith(ReadOptionsCodec, "InvalidOptions", "read options");

/** A transcript with the concrete format it was read as. */
export interface ReadResult extends Transcript {
  readonly format: Exclude<TranscriptFormat, "auto">;
}

const withFormat =
  (format: ReadResult["format"]) =>
  (t: Transcript): ReadResult => ({ ...t, format });

/**
 * Detection for `auto`: a `.traj` (SWE-agent, unless the document is a mini-swe-agent trajectory) /
 * `.jsonl` source name decides; otherwise the text:
 * a whole-document JSON object with `history` is a trajectory, one whose `trajectory_format` starts
 * with `mini-swe-agent` a mini-swe-agent trajectory, any other whole-document JSON is
 * OpenAI chat JSON, and text whose first non-blank line is a JSON object on its own is JSONL.
 */
function readAuto(text: string, source: string): E.Either<TranscriptError, ReadResult> {
  const lower = source.toLowerCase();
  if (lower.endsWith(".traj")) {
    // SWE-agent's extension; a mini-swe-agent trajectory saved under it is read as what it is.
    const doc = parseJson(text);
    if (E.isRight(doc) && isMiniTrajectory(doc.right))
      return E.map(withFormat("mini-swe-agent"))(fromMiniValue(doc.right, source));
    return E.map(withFormat("traj"))(readTraj(text, source));
  }
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return E.map(withFormat("jsonl"))(readJsonl(text, source));
  if (text.trim() === "") return E.left({ _tag: "EmptyInput", source });
  const whole = parseJson(text);
  if (E.isRight(whole)) {
    const v = whole.right;
    if (typeof v === "object" && v !== null && !Array.isArray(v) && "history" in v)
      return E.map(withFormat("traj"))(fromTrajValue(v, source));
    if (isMiniTrajectory(v)) return E.map(withFormat("mini-swe-agent"))(fromMiniValue(v, source));
    if (typeof v === "object" && v !== null && !Array.isArray(v) && "role" in v)
      return E.map(withFormat("jsonl"))(readJsonl(text, source));
    return E.map(withFormat("openai-json"))(fromOpenAIValue(v, source));
  }
  const firstLine = text.split("\n").find((l) => l.trim() !== "") ?? "";
  const first = parseJson(firstLine);
  if (E.isRight(first) && typeof first.right === "object" && first.right !== null && !Array.isArray(first.right)) {
    return E.map(withFormat("jsonl"))(readJsonl(text, source));
  }
  return E.left({ _tag: "MalformedJson", source, ...whole.left });
}

/**
 * Reads a transcript into the @cc/lcm message model.
 *
 * @example
 * import { readTranscript } from "@cc/cli";
 * const r = readTranscript('[{"role":"user","content":"hi"}]');
 * // right({ messages: [{ role: "user", content: "hi" }], warnings: [], format: "openai-json" })
 */
export function readTranscript(text: string, options: ReadOptions = {}): E.Either<TranscriptError, ReadResult> {
  const checked = decodeReadOptions(options);
  if (E.isLeft(checked)) return checked;
  const source = options.source ?? "input";
  switch (options.format ?? "auto") {
    case "openai-json":
      return E.map(withFormat("openai-json"))(readOpenAIJson(text, source));
    case "jsonl":
      return E.map(withFormat("jsonl"))(readJsonl(text, source));
    case "traj":
      return E.map(withFormat("traj"))(readTraj(text, source));
    case "mini-swe-agent":
      return E.map(withFormat("mini-swe-agent"))(readMini(text, source));
    case "auto":
      return readAuto(text, source);
  }
}
