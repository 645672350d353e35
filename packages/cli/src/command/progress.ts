/**
 * A progress bar on stderr, shown only when stderr is a terminal and the input is long.
 *
 * @module command/progress
 */

/** Inputs with at least this many messages get a progress bar (on a TTY). */
export const PROGRESS_MIN_MESSAGES = 200;

/**
 * Renders one bar line (pure).
 *
 * @example renderBar("counting", 5, 10, 10) // "counting [#####-----] 5/10"
 */
export function renderBar(label: string, done: number, total: number, width = 30): string {
  const t = Math.max(1, total);
  const d = Math.min(Math.max(0, done), t);
  const filled = Math.round((d / t) * width);
  return `${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${d}/${total}`;
}

/** Something that shows progress; `done()` clears the line. */
export interface Progress {
  update(done: number): void;
  done(): void;
}

/** A bar drawn with carriage returns on `write`, or a no-op when `enabled` is false. */
export function progressBar(label: string, total: number, write: (s: string) => void, enabled: boolean): Progress {
  if (!enabled) return { update: () => undefined, done: () => undefined };
  let last = -1;
  return {
    update: (done) => {
      const pct = Math.floor((done / Math.max(1, total)) * 100);
      if (pct === last) return;
      last = pct;
      write(`\r${renderBar(label, done, total)}`);
    },
    done: () => write(`\r${" ".repeat(label.length + 45)}\r`),
  };
}
