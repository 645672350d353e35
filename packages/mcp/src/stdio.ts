/**
 * A stdio transport for the MCP SDK's `Server` that bounds each request line and answers every
 * line it cannot pass on with a JSON-RPC error (the SDK's own stdio transport drops such a line
 * without an answer, and closes on a line over its buffer size).
 *
 * @module stdio
 */
import type { Readable, Writable } from "node:stream";
import { decodeOrThrow, decodeWith, intIn, objectCodec, type InvalidOptions } from "@cc/validate";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type * as E from "fp-ts/lib/Either.js";
import { checkLine, errorReply, INVALID_REQUEST, LineFramer, type ErrorReply } from "./internal/framing.js";

/** Default bound of one request line, in bytes (4 MiB). */
export const DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/** Options of {@link createStdioTransport} (decoded by a closed codec: unknown keys are refused). */
export interface StdioTransportOptions {
  /**
   * Longest request line accepted, in bytes without its `\n` (integer 1024..268435456). A longer
   * line gets a JSON-RPC error `-32600` with id null as soon as it passes the bound; its bytes
   * are dropped up to its end and the next line is served.
   * @default 4194304 (4 MiB)
   */
  readonly maxRequestBytes?: number;
}

/** Closed io-ts codec of {@link StdioTransportOptions}. */
export const StdioTransportOptionsCodec = objectCodec(
  "StdioTransportOptions",
  {},
  { maxRequestBytes: intIn(1024, 256 * 1024 * 1024) },
  { expected: "an options object" },
);

/**
 * Validates transport options (unknown keys, NaN, ±Infinity, fractions and out-of-range
 * numbers are refused, each problem naming its field).
 *
 * @example
 * decodeStdioTransportOptions({ maxRequestBytes: 0 }); // left({ _tag: "InvalidOptions", subject: "MCP stdio transport options", … })
 */
export const decodeStdioTransportOptions: (input: unknown) => E.Either<InvalidOptions, StdioTransportOptions> =
  decodeWith(StdioTransportOptionsCodec, "InvalidOptions", "MCP stdio transport options");

/** The transport: newline-delimited JSON-RPC over a readable and a writable stream. */
class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private readonly framer: LineFramer;
  private started = false;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    maxBytes: number,
  ) {
    this.framer = new LineFramer(maxBytes);
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    for (const frame of this.framer.push(bytes)) {
      if (this.closed) return;
      if (frame._tag === "TooLong") {
        this.refuse(
          errorReply(
            null,
            INVALID_REQUEST,
            `Invalid Request: the request line is longer than ${frame.limit} bytes (the server's maxRequestBytes)`,
          ),
        );
        continue;
      }
      const checked = checkLine(frame.bytes);
      if (checked._tag === "Refused") this.refuse(checked.reply);
      else if (checked._tag === "Message") this.deliver(checked.message);
      else if (checked._tag === "BadResponse")
        this.onerror?.(new Error(`ignored ${checked.problem} (a response is never answered)`));
    }
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  /** Hands a message to the SDK; a throwing handler is reported, never thrown into the stream. */
  private deliver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (e: unknown) {
      this.onerror?.(e instanceof Error ? e : new Error(String(e)));
    }
  }

  /** Answers a line that is not a valid message, and reports it (the sender's problem, not the server's). */
  private refuse(reply: ErrorReply): void {
    this.onerror?.(new Error(`refused a request (${reply.error.code}): ${reply.error.message}`));
    this.write(`${JSON.stringify(reply)}\n`).catch((e: unknown) =>
      this.onerror?.(e instanceof Error ? e : new Error(String(e))),
    );
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed || this.output.destroyed) {
        reject(new Error("the transport is closed"));
        return;
      }
      const done = (error?: Error | null): void => (error ? reject(error) : resolve());
      if (!this.output.write(text, (error) => error && done(error))) this.output.once("drain", () => done());
      else done();
    });
  }

  start(): Promise<void> {
    if (this.started)
      return Promise.reject(new Error("the stdio transport is already started (Server.connect starts it)"));
    this.started = true;
    this.input.on("data", this.onData);
    this.input.on("error", this.onStreamError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("error", this.onStreamError);
    if (this.input.listenerCount("data") === 0) this.input.pause();
    this.framer.clear();
    this.onclose?.();
    return Promise.resolve();
  }
}

/**
 * A stdio `Transport` for `Server.connect`; invalid options throw a `CcError` (from @cc/validate)
 * carrying the `InvalidOptions`. Each line of `input`
 * is one JSON-RPC message; a line longer than `maxRequestBytes` is answered with `-32600` (id
 * null) and skipped, a line that is not UTF-8 JSON with `-32700` (id null), and any other line
 * that is not a valid JSON-RPC 2.0 / MCP message (a batch array, `jsonrpc` other than "2.0", an
 * object id, non-object params, …) with `-32600` — then the next line is served. Refused lines
 * are also reported through `onerror`. Stdout carries only the protocol: log to stderr.
 *
 * @example
 * const transport = createStdioTransport(process.stdin, process.stdout, { maxRequestBytes: 1024 * 1024 });
 * const server = createIndexServer(index);
 * await server.connect(transport);
 */
export function createStdioTransport(
  input: Readable,
  output: Writable,
  options: StdioTransportOptions = {},
): Transport {
  const decoded = decodeOrThrow(decodeStdioTransportOptions, options);
  return new BoundedStdioTransport(input, output, decoded.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES);
}
