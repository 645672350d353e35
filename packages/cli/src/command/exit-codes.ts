/**
 * Exit codes of `cc-compact`, one per failure class.
 *
 * @module command/exit-codes
 */
export const ExitCode = {
  /** Success. */
  ok: 0,
  /** A bug: an unexpected exception (reported on stderr). */
  internal: 1,
  /** Bad command line: unknown option, bad number, missing argument. */
  usage: 2,
  /** The transcript could not be read or is malformed (the message names the line and field). */
  input: 3,
  /** The summary provider failed (auth, network, bad response) at every level. */
  provider: 4,
  /** The index file could not be opened, written or searched. */
  index: 5,
  /** `expand`: no entry with that id. */
  notFound: 6,
  /** `search` / `expand` / `mcp`: the index file does not exist (it is never created for reading). */
  indexMissing: 7,
  /** `compact`: the output was written but is still over the budget (the report says why). */
  budgetNotMet: 8,
} as const;

/** One of the {@link ExitCode} values. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
