/**
 * The pure core of the stdio transport: a bounded line framer (bytes in, lines or "too long"
 * out, never holding more than the bound) and the check of one line as a JSON-RPC 2.0 message
 * (a message for the SDK, or the error response the sender gets instead).
 *
 * @module internal/framing
 */
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** JSON-RPC 2.0 error codes the transport answers with. */
export const PARSE_ERROR = -32700;
/** See {@link PARSE_ERROR}. */
export const INVALID_REQUEST = -32600;

/** What the framer yields: a complete line (without its `\n`), or the size of a line it dropped. */
export type Frame =
  { readonly _tag: "Line"; readonly bytes: Buffer } | { readonly _tag: "TooLong"; readonly limit: number };

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into `\n`-terminated lines of at most `limit` bytes (the `\n` not
 * counted). A longer line is reported once, as soon as it passes the limit, and its bytes are
 * dropped up to and including its `\n`; the next line is framed normally. Memory held is at most
 * `limit` bytes plus one chunk.
 */
export class LineFramer {
  private chunks: Buffer[] = [];
  private held = 0;
  /** Inside a line that passed the limit: dropping bytes until its end. */
  private dropping = false;

  constructor(private readonly limit: number) {}

  /** Frames `chunk` (appended to what came before). */
  push(chunk: Buffer): readonly Frame[] {
    const frames: Frame[] = [];
    let at = 0;
    while (at < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, at);
      const end = nl === -1 ? chunk.length : nl;
      if (this.dropping) {
        if (nl !== -1) this.dropping = false;
      } else if (this.held + (end - at) > this.limit) {
        this.clear();
        frames.push({ _tag: "TooLong", limit: this.limit });
        this.dropping = nl === -1;
      } else if (nl === -1) {
        this.chunks.push(chunk.subarray(at));
        this.held += chunk.length - at;
      } else {
        const tail = chunk.subarray(at, end);
        const bytes = this.chunks.length === 0 ? tail : Buffer.concat([...this.chunks, tail], this.held + tail.length);
        this.clear();
        frames.push({ _tag: "Line", bytes });
      }
      if (nl === -1) break;
      at = nl + 1;
    }
    return frames;
  }

  /** Drops what is held (an unfinished line). */
  clear(): void {
    this.chunks = [];
    this.held = 0;
  }
}

/** A JSON-RPC id, or `null` when the request's id could not be determined. */
export type ReplyId = string | number | null;

/** A JSON-RPC 2.0 error response (`id` null when the request's id is unknown). */
export interface ErrorReply {
  readonly jsonrpc: "2.0";
  readonly id: ReplyId;
  readonly error: { readonly code: number; readonly message: string };
}

/**
 * What one line is: a message for the SDK, an error to answer, a malformed response (never
 * answered: replying to a response could start an error ping-pong between two peers), or
 * nothing (a blank line).
 */
export type Checked =
  | { readonly _tag: "Message"; readonly message: JSONRPCMessage }
  | { readonly _tag: "Refused"; readonly reply: ErrorReply }
  | { readonly _tag: "BadResponse"; readonly problem: string }
  | { readonly _tag: "Blank" };

/** The error response with `code`, `message` and `id`. */
export const errorReply = (id: ReplyId, code: number, message: string): ErrorReply => ({
  jsonrpc: "2.0",
  id,
  error: { code, message },
});

const refused = (id: ReplyId, code: number, message: string): Checked => ({
  _tag: "Refused",
  reply: errorReply(id, code, message),
});

const isObject = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u);

/** A valid request id (a string or an integer, as MCP allows), or undefined. */
function idOf(u: unknown): string | number | undefined {
  return typeof u === "string" || (typeof u === "number" && Number.isSafeInteger(u)) ? u : undefined;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const clip = (s: string, n = 200): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/** A value as a short JSON text (`undefined` when absent). */
const shown = (u: unknown): string => (u === undefined ? "undefined" : clip(JSON.stringify(u), 40));

/**
 * Checks one framed line (bytes without the `\n`; a trailing `\r` is allowed). Not UTF-8 or not
 * JSON is a parse error (-32700, id null). A batch (an array), a non-object, `jsonrpc` other
 * than "2.0", an id that is not a string or an integer, params that are not an object, or any
 * other shape the MCP schema refuses is an invalid request (-32600), answered with the request's
 * id when it has a valid one and a method, else with id null. A line with `result` or `error`
 * and no `method` is a response: passed on when valid, else `BadResponse` (reported, never
 * answered). A blank line is skipped.
 */
export function checkLine(bytes: Buffer): Checked {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return refused(null, PARSE_ERROR, "Parse error: the line is not valid UTF-8");
  }
  if (text.endsWith("\r")) text = text.slice(0, -1);
  if (text.trim() === "") return { _tag: "Blank" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return refused(null, PARSE_ERROR, `Parse error: ${clip(e instanceof Error ? e.message : String(e))}`);
  }
  if (Array.isArray(value))
    return refused(
      null,
      INVALID_REQUEST,
      "Invalid Request: batch requests (arrays) are not supported; send one JSON-RPC object per line",
    );
  if (!isObject(value)) return refused(null, INVALID_REQUEST, "Invalid Request: a JSON-RPC message is an object");
  const isCall = "method" in value;
  if (!isCall && ("result" in value || "error" in value)) {
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) return { _tag: "Message", message: parsed.data };
    // A JSON-RPC error about a line this side sent, which it could not read, has id null.
    return {
      _tag: "BadResponse",
      problem:
        value["id"] === null
          ? "an error response with id null (the peer could not read a message)"
          : "a malformed response",
    };
  }
  const id = idOf(value["id"]);
  const replyTo: ReplyId = isCall && id !== undefined ? id : null;
  if (value["jsonrpc"] !== "2.0")
    return refused(replyTo, INVALID_REQUEST, `Invalid Request: jsonrpc must be "2.0", got ${shown(value["jsonrpc"])}`);
  if ("id" in value && id === undefined)
    return refused(null, INVALID_REQUEST, "Invalid Request: id must be a string or an integer");
  if (isCall) {
    if (typeof value["method"] !== "string")
      return refused(replyTo, INVALID_REQUEST, "Invalid Request: method must be a string");
    if ("params" in value && !isObject(value["params"]))
      return refused(replyTo, INVALID_REQUEST, "Invalid Request: params must be an object");
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return { _tag: "Message", message: parsed.data };
  const issue = parsed.error.issues[0];
  const problem =
    issue === undefined
      ? "not a JSON-RPC message"
      : `${issue.path.length > 0 ? `${issue.path.join(".")}: ` : ""}${issue.message}`;
  return refused(replyTo, INVALID_REQUEST, `Invalid Request: ${clip(problem)}`);
}
