/**
 * `cc-compact`: the command-line shell around the transcript readers, the context manager of
 * @cc/context (one turn per run) and the index. All effects (files, stdin, stdout, stderr, environment, clock) come in through
 * {@link CliIo}; stdout is written once, at the end, so a failure never leaves partial output.
 *
 * @module main
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Readable, Writable } from "node:stream";
import { decodeContextManager, type ContextError } from "@cc/context";
import { openSqliteIndex, memoryIndex, type SegmentIndex } from "@cc/search";
import { createRedactor, offlineProvider, openAICompatibleProvider, pressureOf } from "@cc/lcm";
import { createRunRemover, displayUrl, urlSecrets } from "@cc/lcm/internal";
import { toOpenAIMessages, type Provider } from "@cc/messages";
import { memoCounter, tiktokenCounter, type TokenCounter } from "@cc/tokens";
import { createIndexServer, createStdioTransport, decodeIndexServerOptions } from "@cc/mcp";
import * as E from "fp-ts/lib/Either.js";
import {
  HELP,
  parseCommand,
  type CompactCommand,
  type ExpandCommand,
  type McpCommand,
  type SearchCommand,
} from "./command/args.js";
import { ExitCode, type ExitCodeValue } from "./command/exit-codes.js";
import { progressBar, PROGRESS_MIN_MESSAGES } from "./command/progress.js";
import { formatReport } from "./command/report.js";
import { formatTranscriptError } from "./formats/error.js";
import { readTranscript } from "./formats/read.js";
import { decodeTranscriptBytes } from "./formats/utf8.js";
import { watchProvider } from "./command/provider-watch.js";
import { findNamespaces } from "./command/namespaces.js";
import { formatScore } from "./command/score.js";

/** The effects the command uses. */
export interface CliIo {
  readonly readStdin: () => Promise<string>;
  /** stdin as bytes (checked as UTF-8 like a file); when absent, `readStdin` is used. */
  readonly readStdinBytes?: () => Promise<Uint8Array>;
  readonly stdout: (s: string) => void;
  readonly stderr: (s: string) => void;
  readonly stderrIsTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => number;
  /** The protocol streams and stop signals of `cc-compact mcp`; without them `mcp` is an internal error. */
  readonly serve?: ServeIo;
}

/** What `cc-compact mcp` serves on: the protocol streams and the stop signals. */
export interface ServeIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  /** Calls `stop` on SIGTERM / SIGINT; returns the function that removes the handlers. */
  readonly onStopSignal: (stop: (signal: string) => void) => () => void;
}

const VERSION = "0.1.0";

const describeError = (e: unknown): string => (e instanceof Error ? e.message : String(e));

async function openIndex(path: string | undefined): Promise<E.Either<string, SegmentIndex>> {
  if (path === undefined) return E.right(memoryIndex());
  const r = await openSqliteIndex({ path })();
  return E.isLeft(r) ? E.left(`${path}: ${r.left._tag}${"message" in r.left ? `: ${r.left.message}` : ""}`) : r;
}

async function yieldToLoop(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
}

async function compactCommand(cmd: CompactCommand, io: CliIo): Promise<ExitCodeValue> {
  const source = cmd.file ?? "stdin";
  let text: string;
  let decodeWarning: string | undefined;
  try {
    const bytes =
      cmd.file === undefined
        ? io.readStdinBytes === undefined
          ? undefined
          : await io.readStdinBytes()
        : await readFile(cmd.file);
    if (bytes === undefined) text = await io.readStdin();
    else ({ text, warning: decodeWarning } = decodeTranscriptBytes(bytes, source));
  } catch (e: unknown) {
    io.stderr(`cc-compact: ${source}: cannot read: ${describeError(e)}\n`);
    return ExitCode.input;
  }
  const read = readTranscript(text, { format: cmd.format, source });
  if (E.isLeft(read)) {
    io.stderr(`cc-compact: ${formatTranscriptError(read.left)}\n`);
    if (decodeWarning !== undefined) io.stderr(`cc-compact: ${decodeWarning}\n`);
    return ExitCode.input;
  }
  const { messages, format } = read.right;
  const warnings = decodeWarning === undefined ? read.right.warnings : [decodeWarning, ...read.right.warnings];
  const counter: TokenCounter = memoCounter(tiktokenCounter({ encoding: cmd.encoding }), {
    maxEntries: 50_000,
    maxBytes: 64 * 1024 * 1024,
  });
  try {
    // Counting is the long part on big inputs: warm the memo message by message with a progress bar.
    const bar = progressBar(
      "counting tokens",
      messages.length,
      io.stderr,
      io.stderrIsTTY && messages.length >= PROGRESS_MIN_MESSAGES,
    );
    for (let i = 0; i < messages.length; i++) {
      counter.countMessages([messages[i]!]);
      if (i % 50 === 49) {
        bar.update(i + 1);
        await yieldToLoop();
      }
    }
    bar.done();
    let provider: Provider = offlineProvider({ counter });
    let providerFailures = (): readonly string[] => [];
    if (cmd.providerUrl !== undefined) {
      const key = io.env["CC_PROVIDER_KEY"];
      const made = openAICompatibleProvider({
        baseUrl: cmd.providerUrl,
        ...(key === undefined || key === "" ? {} : { apiKey: key }),
        maxRetries: 1,
        backoffMs: 200,
        timeoutMs: 60_000,
      });
      if (E.isLeft(made)) {
        io.stderr(`cc-compact: --provider-url: ${made.left.message}\n`);
        return ExitCode.usage;
      }
      const watched = watchProvider(made.right);
      provider = watched.provider;
      providerFailures = watched.failures;
    }
    const index = cmd.strategy === "hierarchical" ? await openIndex(cmd.index) : E.right(undefined);
    if (E.isLeft(index)) {
      io.stderr(`cc-compact: cannot open the index ${index.left}\n`);
      return ExitCode.index;
    }
    try {
      const o = cmd.options;
      const manager = decodeContextManager({
        strategy: cmd.strategy,
        maxTokens: o.maxTokens,
        threshold: o.softThreshold,
        preserveLast: o.preserveLast,
        counter,
        provider,
        namespace: cmd.namespace,
        noteTokens: 512,
        summaryModel: o.compactionModel,
        pinTask: o.pinTask,
        now: io.now,
        ...(index.right === undefined ? {} : { index: index.right }),
      });
      if (E.isLeft(manager)) {
        io.stderr(`cc-compact: ${manager.left.message}\n`);
        return ExitCode.usage;
      }
      const run = await manager.right.compactTE(messages, { force: cmd.force })();
      if (E.isLeft(run)) {
        io.stderr(`cc-compact: ${run.left._tag === "Aborted" ? "aborted" : run.left.message}\n`);
        return exitCodeOf(run.left);
      }
      const turn = run.right;
      const fellBack = turn.warnings.find((w) => w._tag === "SummaryFellToTruncation");
      // The provider failing (a completion, or listing its models when no --model was given)
      // is a provider error even when the compactor's attempt says "skipped".
      const failures = providerFailures();
      if (fellBack !== undefined && (fellBack.providerFailed || failures.length > 0) && cmd.providerUrl !== undefined) {
        const why = [...new Set([...failures, ...fellBack.attempts])];
        io.stderr(
          `cc-compact: the provider at ${displayUrl(cmd.providerUrl)} failed:\n${why.map((a) => `  ${a}`).join("\n")}\n`,
        );
        return ExitCode.provider;
      }
      const failedWrites = turn.warnings.filter((w) => w._tag === "UnitKept").length;
      io.stdout(`${JSON.stringify(toOpenAIMessages(turn.messages), null, 2)}\n`);
      if (!cmd.quiet) {
        const usage = pressureOf(turn.tokensBefore, o);
        io.stderr(
          formatReport(turn, {
            source,
            format,
            messagesIn: messages.length,
            warnings,
            pressure: usage.pressure,
            belowThreshold: !turn.compacted && !cmd.force && !usage.shouldCompact,
          }),
        );
      }
      if (failedWrites > 0 && turn.evicted.length === 0) return ExitCode.index;
      return turn.budgetMet ? ExitCode.ok : ExitCode.budgetNotMet;
    } finally {
      if (index.right !== undefined) await index.right.close()();
    }
  } finally {
    counter.dispose();
  }
}

/** Exit code of a turn that produced no prompt: bad settings are usage errors, bad messages input errors. */
function exitCodeOf(e: ContextError): ExitCodeValue {
  if (e._tag === "InvalidOptions") return ExitCode.usage;
  if (e._tag === "IndexWriteFailed") return ExitCode.index;
  if (e._tag === "InvalidInput" && e.subject !== "turn") return ExitCode.input;
  return ExitCode.internal;
}

async function withIndex(
  command: string,
  path: string,
  io: CliIo,
  body: (index: SegmentIndex) => Promise<ExitCodeValue>,
): Promise<ExitCodeValue> {
  // Reading never creates: SQLite would make an empty database of a mistyped path.
  if (!existsSync(path)) {
    io.stderr(
      `cc-compact: ${command}: no index at ${path} (the file does not exist; \`cc-compact FILE -s hierarchical -i ${path}\` writes one)\n`,
    );
    return ExitCode.indexMissing;
  }
  const index = await openIndex(path);
  if (E.isLeft(index)) {
    io.stderr(`cc-compact: cannot open the index ${index.left}\n`);
    return ExitCode.index;
  }
  try {
    return await body(index.right);
  } finally {
    await index.right.close()();
  }
}

async function searchCommand(cmd: SearchCommand, io: CliIo): Promise<ExitCodeValue> {
  return withIndex("search", cmd.index, io, async (index) => {
    const hits = await index.search(cmd.query, {
      k: cmd.k,
      ...(cmd.namespace === undefined ? {} : { namespace: cmd.namespace }),
    })();
    if (E.isLeft(hits)) {
      io.stderr(`cc-compact: search failed: ${JSON.stringify(hits.left)}\n`);
      return ExitCode.index;
    }
    io.stdout(`${JSON.stringify(hits.right, null, 2)}\n`);
    io.stderr(
      `${hits.right.length} hits for ${JSON.stringify(cmd.query)}\n${hits.right.map((h, i) => `  ${i + 1}. ${h.id} [namespace ${h.namespace}, ${h.kind}, score ${formatScore(h.score)}] ${h.snippet.slice(0, 100)}`).join("\n")}${hits.right.length > 0 ? "\n" : ""}`,
    );
    return ExitCode.ok;
  });
}

async function expandCommand(cmd: ExpandCommand, io: CliIo): Promise<ExitCodeValue> {
  let namespace = cmd.namespace;
  if (namespace === undefined && existsSync(cmd.index)) {
    const found = await findNamespaces(cmd.index, cmd.id);
    if (E.isLeft(found)) {
      io.stderr(`cc-compact: cannot open the index ${cmd.index}: ${found.left}\n`);
      return ExitCode.index;
    }
    if (found.right.length === 0) {
      io.stderr(`cc-compact: no entry ${JSON.stringify(cmd.id)} in any namespace\n`);
      return ExitCode.notFound;
    }
    if (found.right.length > 1) {
      io.stderr(
        `cc-compact: expand: ${JSON.stringify(cmd.id)} is in ${found.right.length} namespaces (${found.right.join(", ")}): choose one with -n\n`,
      );
      return ExitCode.usage;
    }
    namespace = found.right[0]!;
  }
  return withIndex("expand", cmd.index, io, async (index) => {
    const r = await index.expand(cmd.id, namespace)();
    if (E.isLeft(r)) {
      io.stderr(`cc-compact: expand failed: ${JSON.stringify(r.left)}\n`);
      return ExitCode.index;
    }
    if (r.right === undefined) {
      io.stderr(`cc-compact: no entry ${JSON.stringify(cmd.id)} in namespace ${JSON.stringify(namespace)}\n`);
      return ExitCode.notFound;
    }
    io.stdout(cmd.raw ? r.right.content : `${JSON.stringify(r.right, null, 2)}\n`);
    return ExitCode.ok;
  });
}

async function mcpCommand(cmd: McpCommand, io: CliIo): Promise<ExitCodeValue> {
  const serve = io.serve;
  if (serve === undefined) {
    io.stderr("cc-compact: mcp: no stdio to serve on\n");
    return ExitCode.internal;
  }
  // withIndex refuses a missing file: serving never creates an index, and the tools only read.
  return withIndex("mcp", cmd.index, io, async (index) => {
    const options = {
      name: "cc-compact",
      version: VERSION,
      ...(cmd.namespace === undefined ? {} : { namespace: cmd.namespace }),
    };
    const decoded = decodeIndexServerOptions(options);
    if (E.isLeft(decoded)) {
      io.stderr(`cc-compact: mcp: ${decoded.left.message}\n`);
      return ExitCode.usage;
    }
    const server = createIndexServer(index, options);
    const transport = createStdioTransport(serve.stdin, serve.stdout);
    let stopped: (why: string) => void = () => undefined;
    const stop = new Promise<string>((resolve) => {
      stopped = resolve;
    });
    const onEnd = (): void => stopped("stdin closed");
    serve.stdin.once("end", onEnd);
    serve.stdin.once("close", onEnd);
    const removeSignals = serve.onStopSignal((signal) => stopped(signal));
    server.onclose = () => stopped("transport closed");
    server.onerror = (e) => io.stderr(`cc-compact: mcp: ${e.message}\n`);
    try {
      await server.connect(transport);
      io.stderr(
        `cc-compact: mcp: serving ${cmd.index}${cmd.namespace === undefined ? "" : ` (namespace ${JSON.stringify(cmd.namespace)})`} on stdio\n`,
      );
      const why = await stop;
      io.stderr(`cc-compact: mcp: stopping (${why})\n`);
      return ExitCode.ok;
    } finally {
      removeSignals();
      serve.stdin.off("end", onEnd);
      serve.stdin.off("close", onEnd);
      server.onclose = () => undefined;
      await server.close();
    }
  });
}

/**
 * Runs `cc-compact` with `argv` (arguments after the script) and returns the exit code.
 * Never rejects: unexpected exceptions become {@link ExitCode.internal} with a message on stderr.
 * The secrets are the `CC_PROVIDER_KEY` value and the credential-named parameters of every
 * argument shaped like a URL (`--provider-url http://…?key=…`). Everything written to stderr
 * passes through a redactor of `@cc/lcm` built from them (every form of each secret, URL queries
 * and userinfo, credential-named parameters and headers, bearer tokens, `sk-…` keys); everything
 * written to stdout has every form of each secret removed (the output is otherwise the data).
 */
export async function main(argv: readonly string[], rawIo: CliIo): Promise<ExitCodeValue> {
  const secrets = [rawIo.env["CC_PROVIDER_KEY"], ...argv.flatMap((a) => urlSecrets(a))];
  const redact = createRedactor(secrets);
  const removeSecrets = createRunRemover(secrets);
  const io: CliIo = { ...rawIo, stderr: (s) => rawIo.stderr(redact(s)), stdout: (s) => rawIo.stdout(removeSecrets(s)) };
  try {
    const cmd = parseCommand(argv);
    if (E.isLeft(cmd)) {
      io.stderr(`cc-compact: ${cmd.left.message}\nTry 'cc-compact --help'.\n`);
      return ExitCode.usage;
    }
    switch (cmd.right._tag) {
      case "Help":
        io.stdout(HELP);
        return ExitCode.ok;
      case "Version":
        io.stdout(`${VERSION}\n`);
        return ExitCode.ok;
      case "Compact":
        return await compactCommand(cmd.right, io);
      case "Search":
        return await searchCommand(cmd.right, io);
      case "Expand":
        return await expandCommand(cmd.right, io);
      case "Mcp":
        return await mcpCommand(cmd.right, io);
    }
  } catch (e: unknown) {
    io.stderr(`cc-compact: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return ExitCode.internal;
  }
}

/**
 * Keeps a closed pipe on `stream` (the reader left, as `cc-compact … | head -c 10` does) from
 * ending the process with an unhandled `EPIPE`: later writes are dropped and the exit status stays
 * the command's own. Any other write error is reported once on stderr and sets exit status 1
 * (later errors of the same stream are those of writes after the first failure).
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream, name: string): void {
  let done = false;
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (done) return;
    done = true;
    if (e.code === "EPIPE") return;
    process.exitCode = ExitCode.internal;
    if (stream !== process.stderr) process.stderr.write(`cc-compact: cannot write to ${name}: ${e.message}\n`);
  });
}

/**
 * The process's real effects. A reader that closes stdout early is not an error: output stops,
 * the run completes (the index is written) and the exit status is the command's own (0 on success).
 */
export function processIo(): CliIo {
  quietOnClosedPipe(process.stdout, "stdout");
  quietOnClosedPipe(process.stderr, "stderr");
  return {
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin)
        chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
      return Buffer.concat(chunks).toString("utf8");
    },
    readStdinBytes: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin)
        chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
      return Buffer.concat(chunks);
    },
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    stderrIsTTY: process.stderr.isTTY === true,
    env: process.env,
    now: Date.now,
    serve: {
      stdin: process.stdin,
      stdout: process.stdout,
      onStopSignal: (stop) => {
        const onTerm = (): void => stop("SIGTERM");
        const onInt = (): void => stop("SIGINT");
        process.once("SIGTERM", onTerm);
        process.once("SIGINT", onInt);
        return () => {
          process.off("SIGTERM", onTerm);
          process.off("SIGINT", onInt);
        };
      },
    },
  };
}
