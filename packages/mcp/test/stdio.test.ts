// The bounded stdio transport: its line framer and line check as properties, its options
// decoding, and the transport itself over real streams with the real MCP server.
import { PassThrough } from "node:stream";
import { memoryIndex } from "@cc/search";
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { CcError } from "@cc/validate";
import { describe, expect, it } from "vitest";
import { checkLine, LineFramer, type Frame } from "../src/internal/framing.js";
import {
  createIndexServer,
  createStdioTransport,
  decodeStdioTransportOptions,
  DEFAULT_MAX_REQUEST_BYTES,
} from "../src/index.js";
import { runsFor } from "../../../.ci/support/runs.js";

const runs = (local: number): number => runsFor(local, Math.max(1000, local));

/** Cuts `bytes` at the given points (sorted, deduplicated, within range). */
function cut(bytes: Buffer, points: readonly number[]): Buffer[] {
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const p of [...at, bytes.length]) {
    chunks.push(bytes.subarray(from, p));
    from = p;
  }
  return chunks.filter((c) => c.length > 0);
}

describe("LineFramer", () => {
  it("yields each line up to the limit and one TooLong per longer line, however the stream is chunked", () => {
    const limit = 16;
    const lineBytes = fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a.map((b) => (b === 0x0a ? 0x20 : b))));
    fc.assert(
      fc.property(
        fc.array(lineBytes, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.boolean(),
        (lines, points, unfinished) => {
          const stream = Buffer.concat([
            ...lines.flatMap((l) => [l, Buffer.from("\n")]),
            unfinished ? Buffer.from("tail") : Buffer.alloc(0),
          ]);
          const framer = new LineFramer(limit);
          const frames: Frame[] = cut(stream, points).flatMap((c) => framer.push(c));
          const expected: Frame[] = lines.map((l) =>
            l.length > limit ? { _tag: "TooLong", limit } : { _tag: "Line", bytes: l },
          );
          expect(frames.map((f) => (f._tag === "Line" ? { _tag: "Line", bytes: Buffer.from(f.bytes) } : f))).toEqual(
            expected,
          );
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it("reports a long line as soon as it passes the limit, before its end arrives", () => {
    const framer = new LineFramer(8);
    expect(framer.push(Buffer.from("12345"))).toEqual([]);
    expect(framer.push(Buffer.from("6789"))).toEqual([{ _tag: "TooLong", limit: 8 }]);
    expect(framer.push(Buffer.from("more and more"))).toEqual([]);
    expect(framer.push(Buffer.from("end\nok\n"))).toEqual([{ _tag: "Line", bytes: Buffer.from("ok") }]);
  });
});

describe("checkLine", () => {
  // Keys other than "__proto__": the SDK's schema (zod) drops an own "__proto__" key of an object it
  // copies, so such a key never reaches a handler, with this transport or the SDK's own.
  const key = fc.string().filter((k) => k !== "__proto__" && k !== "_meta"); // "_meta" has a schema of its own
  const valid = fc.oneof(
    fc.record({
      jsonrpc: fc.constant("2.0"),
      id: fc.oneof(fc.string(), fc.integer()),
      method: fc.string(),
      params: fc.dictionary(key, fc.jsonValue(), { maxKeys: 3 }),
    }),
    fc.record({ jsonrpc: fc.constant("2.0"), method: fc.string() }),
    fc.record({
      jsonrpc: fc.constant("2.0"),
      id: fc.oneof(fc.string(), fc.integer()),
      result: fc.dictionary(key, fc.jsonValue(), { maxKeys: 3 }),
    }),
  );

  it("passes every valid JSON-RPC 2.0 message through unchanged", () => {
    fc.assert(
      fc.property(valid, (message) => {
        const r = checkLine(Buffer.from(JSON.stringify(message)));
        expect(r._tag).toBe("Message");
        if (r._tag === "Message")
          expect(JSON.parse(JSON.stringify(r.message))).toEqual(JSON.parse(JSON.stringify(message)));
      }),
      { numRuns: runs(300) },
    );
  });

  it("answers any other JSON value with -32600, with the id only when the request has a valid one; a bad response is never answered", () => {
    const notMessage = fc
      .oneof(
        fc.jsonValue(),
        fc.dictionary(
          fc.constantFrom("jsonrpc", "id", "method", "params", "result", "error", "x"),
          fc.oneof(fc.constant("2.0"), fc.jsonValue()),
          { maxKeys: 5 },
        ),
      )
      .filter((v) => checkLine(Buffer.from(JSON.stringify(v)))._tag !== "Message");
    fc.assert(
      fc.property(notMessage, (value) => {
        const r = checkLine(Buffer.from(JSON.stringify(value)));
        const response =
          typeof value === "object" &&
          value !== null &&
          !Array.isArray(value) &&
          !("method" in value) &&
          ("result" in value || "error" in value);
        expect(r._tag).toBe(response ? "BadResponse" : "Refused");
        if (r._tag !== "Refused") return;
        expect(r.reply.jsonrpc).toBe("2.0");
        expect(r.reply.error.code).toBe(-32600);
        if (r.reply.id !== null) {
          expect(value).toMatchObject({ id: r.reply.id });
          expect(value).toHaveProperty("method");
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it("answers text that is not UTF-8 JSON with -32700 and id null", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        fc.pre(!/^\s*$/.test(s));
        let json = true;
        try {
          JSON.parse(s);
        } catch {
          json = false;
        }
        fc.pre(!json);
        expect(checkLine(Buffer.from(s))).toMatchObject({
          _tag: "Refused",
          reply: { id: null, error: { code: -32700 } },
        });
      }),
      { numRuns: runs(300) },
    );
    expect(checkLine(Buffer.from([0x7b, 0xc3, 0x7d]))).toMatchObject({
      _tag: "Refused",
      reply: { id: null, error: { code: -32700 } },
    });
  });
});

describe("decodeStdioTransportOptions", () => {
  it("accepts the bounds and refuses everything else, naming the field", () => {
    expect(decodeStdioTransportOptions({})).toEqual(E.right({}));
    expect(decodeStdioTransportOptions({ maxRequestBytes: 1024 })).toEqual(E.right({ maxRequestBytes: 1024 }));
    expect(decodeStdioTransportOptions({ maxRequestBytes: 256 * 1024 * 1024 })).toEqual(
      E.right({ maxRequestBytes: 256 * 1024 * 1024 }),
    );
    for (const bad of [NaN, Infinity, -Infinity, -1, 0, 1023, 1024.5, 256 * 1024 * 1024 + 1, "4096", null]) {
      const r = decodeStdioTransportOptions({ maxRequestBytes: bad });
      expect(E.isLeft(r), String(bad)).toBe(true);
      if (E.isLeft(r)) {
        expect(r.left).toMatchObject({ _tag: "InvalidOptions", subject: "MCP stdio transport options" });
        expect(r.left.problems[0]?.path).toBe("maxRequestBytes");
      }
    }
    const typo = decodeStdioTransportOptions({ maxRequestByte: 4096 });
    expect(E.isLeft(typo) && typo.left.message).toMatch(
      /maxRequestByte: unknown field \(did you mean maxRequestBytes\?\)/,
    );
    expect(E.isLeft(decodeStdioTransportOptions(5))).toBe(true);
  });

  it("createStdioTransport refuses bad options and defaults to DEFAULT_MAX_REQUEST_BYTES", () => {
    expect(() => createStdioTransport(new PassThrough(), new PassThrough(), { maxRequestBytes: 12 })).toThrow(CcError);
    expect(DEFAULT_MAX_REQUEST_BYTES).toBe(4 * 1024 * 1024);
  });
});

describe("createStdioTransport with the MCP server", () => {
  /** A server on a pair of streams, and a reader of what it writes. */
  async function serving(maxRequestBytes: number): Promise<{
    readonly input: PassThrough;
    readonly next: () => Promise<unknown>;
    readonly errors: string[];
    readonly close: () => Promise<void>;
  }> {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = createStdioTransport(input, output, { maxRequestBytes });
    const server = createIndexServer(memoryIndex());
    const errors: string[] = [];
    server.onerror = (e) => errors.push(e.message);
    await server.connect(transport);
    let buffered = "";
    const lines: string[] = [];
    const waiting: ((line: string) => void)[] = [];
    output.setEncoding("utf8").on("data", (d: string) => {
      buffered += d;
      for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
        const l = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const w = waiting.shift();
        if (w === undefined) lines.push(l);
        else w(l);
      }
    });
    const next = (): Promise<unknown> =>
      new Promise<string>((resolve) => {
        const l = lines.shift();
        if (l === undefined) waiting.push(resolve);
        else resolve(l);
      }).then((l) => JSON.parse(l) as unknown);
    return { input, next, errors, close: () => server.close() };
  }

  it("answers a line over the bound, split over many chunks, once; then serves the next request", async () => {
    const s = await serving(1024);
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "p".repeat(5000) } });
    for (let i = 0; i < big.length; i += 700) s.input.write(big.slice(i, i + 700));
    s.input.write(`\n${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" })}\n`);
    expect(await s.next()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: expect.stringContaining("1024 bytes") },
    });
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(s.errors.some((e) => e.includes("refused a request (-32600)"))).toBe(true);
    await s.close();
  });

  it("never answers a malformed response (an error with id null), and goes on serving", async () => {
    const s = await serving(1024);
    s.input.write(`${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })}\n`);
    s.input.write(`${JSON.stringify({ jsonrpc: "2.0", id: { a: 1 }, result: {} })}\n`);
    s.input.write(`${JSON.stringify({ jsonrpc: "2.0", id: 5, method: "ping" })}\n`);
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: 5, result: {} });
    expect(s.errors.filter((e) => e.includes("a response is never answered"))).toHaveLength(2);
    await s.close();
  });

  it("stops reading when closed: later input is ignored and nothing more is written", async () => {
    const s = await serving(1024);
    await s.close();
    s.input.write(`${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" })}\n{bad\n`);
    const more = await Promise.race([
      s.next(),
      new Promise((resolve) => setImmediate(() => setImmediate(() => resolve("nothing")))),
    ]);
    expect(more).toBe("nothing");
  });
});
