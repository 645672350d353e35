// Test output written to a file or a pipe carries no ANSI escapes. Vitest colours its output
// whenever TERM is set (its colour library does not look at isTTY), so a log captured with
// `pnpm test > log` would be full of escape codes. The vitest config calls this for stdout and
// stderr of the main process and sets NO_COLOR for the workers.

/** CSI and OSC escape sequences (colours, cursor moves, hyperlinks). */
// eslint-disable-next-line no-control-regex -- the sequences start with ESC and end with BEL
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/** `text` without ANSI escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

/** The part of a Node stream this module touches. */
export interface WritableLike {
  readonly isTTY?: boolean | undefined;
  write: (chunk: never, ...rest: never[]) => boolean;
}

/**
 * Makes `stream` drop ANSI escapes from string chunks when it is not a terminal; a terminal is left
 * alone. Returns true when the stream was wrapped.
 */
export function plainWhenNotTTY(stream: WritableLike): boolean {
  if (stream.isTTY === true) return false;
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) =>
    write(typeof chunk === "string" ? stripAnsi(chunk) : chunk, ...rest)) as WritableLike["write"];
  return true;
}
