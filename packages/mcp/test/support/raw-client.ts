// A raw stdio JSON-RPC peer of `cc-compact mcp`: writes any bytes to the server's stdin and
// reads its stdout line by line, so tests can send what the SDK's client never would.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const bin = fileURLToPath(new URL("../../../cli/bin/cc-compact.js", import.meta.url));

/** One JSON-RPC message the server wrote. */
export type Reply = {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
};

/** A running `cc-compact mcp` with a raw line reader on its stdout. */
export interface RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  /** Writes `text` (bytes as given: add the `\n` yourself) to the server's stdin. */
  readonly write: (text: string | Buffer) => void;
  /** The next message the server writes (messages not yet taken are queued); rejects after `ms`. */
  readonly next: (ms?: number) => Promise<Reply>;
  /** The first message with this id (others stay queued); rejects after `ms`. */
  readonly reply: (id: string | number, ms?: number) => Promise<Reply>;
  /** Everything the server wrote to stderr so far. */
  readonly stderr: () => string;
  /** Resolves with the exit code and signal when the process ends. */
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>;
}

/** Spawns `cc-compact mcp --index path` and waits until it says it serves. */
export async function startRawServer(path: string): Promise<RawServer> {
  const child = spawn(process.execPath, [bin, "mcp", "--index", path], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
  let err = "";
  let out = "";
  const queue: Reply[] = [];
  const waiting: { readonly wants: (r: Reply) => boolean; readonly take: (r: Reply) => void }[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    out += d;
    for (let nl = out.indexOf("\n"); nl !== -1; nl = out.indexOf("\n")) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      const reply = JSON.parse(line) as Reply;
      const w = waiting.findIndex((x) => x.wants(reply));
      if (w === -1) queue.push(reply);
      else waiting.splice(w, 1)[0]!.take(reply);
    }
  });
  const serving = new Promise<void>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      err += d;
      if (err.includes("on stdio")) resolve();
    });
    void exited.then(() => reject(new Error(`the server ended before serving: ${err}`)));
  });
  // A write after the server ended is the test's failure to see, not an unhandled EPIPE.
  child.stdin.on("error", () => undefined);
  const take = (wants: (r: Reply) => boolean, ms = 30_000): Promise<Reply> =>
    new Promise<Reply>((resolve, reject) => {
      const queued = queue.findIndex(wants);
      if (queued !== -1) return resolve(queue.splice(queued, 1)[0]!);
      const waiter = {
        wants,
        take: (r: Reply): void => {
          clearTimeout(timer);
          resolve(r);
        },
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(waiter), 1);
        reject(new Error(`no reply within ${ms} ms; stderr: ${err.slice(-2000)}`));
      }, ms);
      waiting.push(waiter);
    });
  await serving;
  return {
    child,
    write: (text) => void child.stdin.write(text),
    next: (ms) => take(() => true, ms),
    reply: (id, ms) => take((r) => r.id === id, ms),
    stderr: () => err,
    exited,
  };
}

/** A JSON-RPC line of `message`. */
export const line = (message: unknown): string => `${JSON.stringify(message)}\n`;

/** Sends `initialize` and `notifications/initialized`, as every MCP client does first. */
export async function initialize(server: RawServer): Promise<void> {
  server.write(
    line({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
    }),
  );
  const r = await server.next();
  if (r.id !== "init" || r.result === undefined) throw new Error(`initialize failed: ${JSON.stringify(r)}`);
  server.write(line({ jsonrpc: "2.0", method: "notifications/initialized" }));
}
