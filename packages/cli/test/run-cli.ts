// Runs cc-compact as a real child process (node + tsx on the sources) and captures its output.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const root = fileURLToPath(new URL("../../../", import.meta.url));

/** What one run produced. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `cc-compact args…` with optional stdin (text, or raw bytes) and environment additions. */
export function runCli(
  args: readonly string[],
  stdin?: string | Uint8Array,
  env: Record<string, string> = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--conditions=development", cli, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}

const bin = fileURLToPath(new URL("../bin/cc-compact.js", import.meta.url));

/** A running `bin/cc-compact.js args…` (the installed entry point) with its output collected so far. */
export interface BinProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Exit code and signal of the process itself. */
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>;
  /** Resolves when every holder of the output pipes has closed them (no process can write any more). */
  readonly closed: Promise<void>;
}

/** Starts `bin/cc-compact.js args…` as a real process (in `cwd`, the repository root by default), stdin closed at once. */
export function spawnBin(args: readonly string[], env: Record<string, string> = {}, cwd: string = root): BinProcess {
  const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  child.stdin.end();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return { child, stdout: () => stdout, stderr: () => stderr, exited, closed };
}
