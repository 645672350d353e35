// `cc-compact mcp` as a real process spoken to in raw stdio JSON-RPC: a request line over the
// size bound and every invalid request get a JSON-RPC error response, and the server goes on
// serving the next request on the same stream.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { entry, openSqliteIndex } from "@cc/search";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_REQUEST_BYTES } from "../src/index.js";
import { initialize, line, startRawServer, type RawServer } from "./support/raw-client.js";

let dir = "";
let dbPath = "";
let server: RawServer | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cc-mcp-limits-"));
  dbPath = join(dir, "index.db");
  const index = await openSqliteIndex({ path: dbPath })();
  if (E.isLeft(index)) throw new Error(JSON.stringify(index.left));
  const w = await index.right.write([
    entry({
      id: "seg-1",
      kind: "tool_result",
      summary: "pytest run: ValueError in src/app.py",
      content: "Traceback … ValueError",
    }),
  ])();
  await index.right.close()();
  if (E.isLeft(w)) throw new Error(JSON.stringify(w.left));
});

afterEach(async () => {
  if (server === undefined) return;
  server.child.stdin.end();
  await server.exited;
  server = undefined;
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Sends a ping with `id` and expects its empty result. */
async function pingWorks(s: RawServer, id: number): Promise<void> {
  s.write(line({ jsonrpc: "2.0", id, method: "ping" }));
  expect(await s.reply(id)).toEqual({ jsonrpc: "2.0", id, result: {} });
}

describe("cc-compact mcp: request size", () => {
  it("a request line over 10 MB gets -32600 with id null, and the next request is served", async () => {
    const s = (server = await startRawServer(dbPath));
    await initialize(s);
    const pad = "x".repeat(11 * 1024 * 1024);
    s.write(
      line({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "search_context", arguments: { query: pad } },
      }),
    );
    const refused = await s.next();
    expect(refused).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(refused.error?.message).toContain(String(DEFAULT_MAX_REQUEST_BYTES));
    await pingWorks(s, 2);
    // Still the same process, serving tools after the refused line.
    s.write(
      line({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "search_context", arguments: { query: "ValueError" } },
      }),
    );
    const found = await s.reply(3);
    expect(JSON.stringify(found.result)).toContain("seg-1");
    expect(s.stderr()).toMatch(/refused a request \(-32600\)/);
  });

  it("a line just under the bound is parsed and answered by the server itself", async () => {
    const s = (server = await startRawServer(dbPath));
    await initialize(s);
    const base = line({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "search_context", arguments: { query: "" } },
    });
    const query = "ValueError ".padEnd(DEFAULT_MAX_REQUEST_BYTES - (base.length - 1), "z");
    const request = line({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "search_context", arguments: { query } },
    });
    expect(Buffer.byteLength(request) - 1).toBe(DEFAULT_MAX_REQUEST_BYTES);
    s.write(request);
    const r = await s.reply(4);
    expect(r.error).toBeUndefined();
    expect(JSON.stringify(r.result)).toContain("seg-1");
  });
});

describe("cc-compact mcp: invalid requests", () => {
  const cases: readonly {
    readonly name: string;
    readonly raw: string | Buffer;
    readonly code: number;
    readonly id: string | number | null;
  }[] = [
    {
      name: "a batch (array)",
      raw: `[${JSON.stringify({ jsonrpc: "2.0", id: 10, method: "ping" })}]\n`,
      code: -32600,
      id: null,
    },
    { name: 'jsonrpc "1.0"', raw: line({ jsonrpc: "1.0", id: 11, method: "ping" }), code: -32600, id: 11 },
    { name: "an object id", raw: line({ jsonrpc: "2.0", id: { a: 1 }, method: "ping" }), code: -32600, id: null },
    {
      name: "non-object params",
      raw: line({ jsonrpc: "2.0", id: 13, method: "tools/list", params: 5 }),
      code: -32600,
      id: 13,
    },
    {
      name: "a raw NUL",
      raw: Buffer.from(`{"jsonrpc":"2.0","id":14,"method":"pi\u0000ng"}\n`, "utf8"),
      code: -32700,
      id: null,
    },
    { name: "a lone NUL byte", raw: Buffer.from([0, 0x0a]), code: -32700, id: null },
    { name: "bytes that are not UTF-8", raw: Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]), code: -32700, id: null },
    { name: "not JSON", raw: "{oops\n", code: -32700, id: null },
    { name: "a number", raw: "42\n", code: -32600, id: null },
    { name: "a method that is not a string", raw: line({ jsonrpc: "2.0", id: 15, method: 7 }), code: -32600, id: 15 },
    {
      name: "an unknown top-level key",
      raw: line({ jsonrpc: "2.0", id: 16, method: "ping", extra: true }),
      code: -32600,
      id: 16,
    },
    { name: "a response with neither result nor error", raw: line({ jsonrpc: "2.0", id: 17 }), code: -32600, id: null },
    { name: "a fractional id", raw: line({ jsonrpc: "2.0", id: 1.5, method: "ping" }), code: -32600, id: null },
  ];

  it("each gets a JSON-RPC error response, and the next request on the stream is served", async () => {
    const s = (server = await startRawServer(dbPath));
    await initialize(s);
    let ping = 100;
    for (const c of cases) {
      s.write(c.raw);
      const r = await s.next(10_000).catch((e: unknown) => ({ timeout: String(e) }));
      expect(r, c.name).toMatchObject({ jsonrpc: "2.0", id: c.id, error: { code: c.code } });
      await pingWorks(s, ping++);
    }
  });

  it("blank lines and CRLF line ends are accepted", async () => {
    const s = (server = await startRawServer(dbPath));
    await initialize(s);
    s.write("\n  \r\n");
    s.write(`${JSON.stringify({ jsonrpc: "2.0", id: 20, method: "ping" })}\r\n`);
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: 20, result: {} });
  });
});
