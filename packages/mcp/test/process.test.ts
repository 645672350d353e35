// `cc-compact mcp` as a real process: the SDK's stdio client spawns bin/cc-compact.js on a real
// SQLite index and calls both tools; stdin closing and SIGTERM end it cleanly; a missing index is
// exit code 7 with nothing on stdout (stdout is the protocol).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { entry, openSqliteIndex } from "@cc/search";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createIndexServer, createStdioTransport } from "../src/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = fileURLToPath(new URL("../../cli/bin/cc-compact.js", import.meta.url));
const ORIGINAL = "pytest: ValueError in src/app.py 😀 数据压缩 lone \uD800 end";

let dir = "";
let dbPath = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cc-mcp-"));
  dbPath = join(dir, "index.db");
  const index = await openSqliteIndex({ path: dbPath })();
  if (E.isLeft(index)) throw new Error(JSON.stringify(index.left));
  const w = await index.right.write([
    entry({ id: "seg-1", kind: "tool_result", summary: "pytest run: ValueError in src/app.py", content: ORIGINAL }),
    entry({ id: "seg-2", namespace: "other", summary: "unrelated notes", content: "elsewhere" }),
  ])();
  await index.right.close()();
  if (E.isLeft(w)) throw new Error(JSON.stringify(w.left));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Spawns `cc-compact mcp args…`; `drive` gets the child and a promise of its stderr reaching a text. */
function runMcp(
  args: readonly string[],
  drive: (child: ReturnType<typeof spawn>, stderrHas: (text: string) => Promise<void>) => void,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "mcp", ...args], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const waiters: { text: string; done: () => void }[] = [];
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      for (const w of waiters.splice(0))
        if (stderr.includes(w.text)) w.done();
        else waiters.push(w);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    drive(
      child,
      (text) => new Promise<void>((done) => (stderr.includes(text) ? done() : waiters.push({ text, done }))),
    );
  });
}

describe("the README example", () => {
  it("opens an existing SQLite index and serves it (connected here over the in-memory transport)", async () => {
    const path = dbPath;
    const index = await openSqliteIndex({ path })(); // path: an existing index file, e.g. "journal.db"
    if (index._tag === "Left") throw new Error(index.left._tag);
    const server = createIndexServer(index.right, { defaultK: 10 }); // options: namespace, defaultK, defaultExpandChars, maxExpandChars, name, version
    const transport = createStdioTransport(process.stdin, process.stdout, { maxRequestBytes: 1024 * 1024 }); // stdout carries the protocol: log to stderr only
    expect(typeof transport.start).toBe("function"); // not started: the test process's stdout is not a protocol stream
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "readme", version: "1.0.0" });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      const r = (await client.callTool({ name: "expand_context", arguments: { id: "seg-1" } })) as CallToolResult;
      expect((r.structuredContent as { content: string }).content).toBe(ORIGINAL);
    } finally {
      await client.close();
      await server.close();
      await index.right.close()();
    }
  });
});

describe("cc-compact mcp", () => {
  it("serves search_context and expand_context of a SQLite index to the SDK's stdio client", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, "mcp", "--index", dbPath],
      cwd: root,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    const client = new Client({ name: "test-client", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["expand_context", "search_context"]);
      const found = (await client.callTool({
        name: "search_context",
        arguments: { query: "ValueError app.py" },
      })) as CallToolResult;
      expect(found.isError).not.toBe(true);
      expect((found.structuredContent as { hits: { id: string; namespace: string }[] }).hits[0]).toMatchObject({
        id: "seg-1",
        namespace: "default",
      });
      const page = (await client.callTool({
        name: "expand_context",
        arguments: { id: "seg-1", maxChars: 10 },
      })) as CallToolResult;
      expect(page.structuredContent).toEqual({
        id: "seg-1",
        namespace: "default",
        kind: "tool_result",
        content: ORIGINAL.slice(0, 10),
        offset: 0,
        totalChars: ORIGINAL.length,
        nextOffset: 10,
      });
      const rest = (await client.callTool({
        name: "expand_context",
        arguments: { id: "seg-1", offset: 10, maxChars: 100_000 },
      })) as CallToolResult;
      expect((rest.structuredContent as { content: string }).content).toBe(ORIGINAL.slice(10)); // the lone surrogate crosses the pipe intact
      const bad = (await client.callTool({
        name: "expand_context",
        arguments: { id: "seg-1", offset: -3 },
      })) as CallToolResult;
      expect(bad.isError).toBe(true);
      const missing = (await client.callTool({ name: "expand_context", arguments: { id: "nope" } })) as CallToolResult;
      expect(missing.isError).toBe(true);
      expect(JSON.stringify(missing.content)).toMatch(/no evicted entry with id/);
    } finally {
      await client.close();
    }
    expect(stderr).toMatch(/serving .*index\.db on stdio/);
  });

  it("exits 0 when stdin closes, logging only to stderr", async () => {
    const run = await runMcp(["--index", dbPath], (child, stderrHas) => {
      void stderrHas("on stdio").then(() => child.stdin?.end());
    });
    expect(run).toMatchObject({ code: 0, signal: null, stdout: "" });
    expect(run.stderr).toMatch(/stopping \(stdin closed\)/);
  });

  it("exits 0 on SIGTERM with stdin still open", async () => {
    const run = await runMcp(["--index", dbPath], (child, stderrHas) => {
      void stderrHas("on stdio").then(() => child.kill("SIGTERM"));
    });
    expect(run).toMatchObject({ code: 0, signal: null, stdout: "" });
    expect(run.stderr).toMatch(/stopping \(SIGTERM\)/);
  });

  it("a missing index file is exit code 7, nothing on stdout, and no file is created", async () => {
    const missing = join(dir, "missing.db");
    const run = await runMcp(["--index", missing], () => undefined);
    expect(run).toMatchObject({ code: 7, stdout: "" });
    expect(run.stderr).toMatch(/mcp: no index at .*missing\.db/);
    expect(existsSync(missing)).toBe(false);
  });

  it("without --index it is a usage error (exit code 2)", async () => {
    const run = await runMcp([], (child) => child.stdin?.end());
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toMatch(/mcp: --index FILE is required/);
  });
});
