// Where tests and benchmarks find real agent transcripts. Tests read the small licensed subset kept
// in the repository (`.ci/corpus`, provenance and licence beside it), so they pass on a bare clone.
// Benchmarks read the full corpus in place from the directory named by CC_DATA_DIR, by default
// `../shared/data` next to the repository; a missing directory is a failure with one line that
// names the variable, never a skip.
import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The environment variable that names the data directory. */
export const DATA_DIR_VARIABLE = "CC_DATA_DIR";

/** The repository root (this file lives in `<root>/.ci`). */
const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/** The folder of real transcripts kept in the repository for tests (`<repo>/.ci/corpus`). */
export const corpusDir: string = join(repoRoot, ".ci", "corpus");

/**
 * The absolute path of `relative` inside the repository's test corpus (e.g.
 * "swe-agent-trajectories"). Throws an Error with a one-line message when it does not exist.
 */
export function corpusPath(relative: string): string {
  const path = join(corpusDir, relative);
  if (!existsSync(path))
    throw new Error(
      `test corpus missing: ${path} does not exist (the repository's .ci/corpus holds the tests' transcripts)`,
    );
  return path;
}

/**
 * The data directory: `CC_DATA_DIR` (relative paths resolve against the repository root), else
 * `<repo>/../shared/data`. Not checked; see {@link dataPath}.
 *
 * @default "<repo>/../shared/data"
 */
export function dataDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const set = env[DATA_DIR_VARIABLE];
  if (set === undefined || set === "") return resolve(repoRoot, "..", "shared", "data");
  return isAbsolute(set) ? set : resolve(repoRoot, set);
}

/**
 * The absolute path of `relative` inside the data directory (e.g. "swe-agent-trajectories").
 * Throws an Error whose one-line message names `CC_DATA_DIR` when the path does not exist.
 */
export function dataPath(relative: string, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const dir = dataDir(env);
  const path = join(dir, relative);
  if (!existsSync(path)) {
    const set = env[DATA_DIR_VARIABLE];
    const source =
      set === undefined || set === "" ? `${DATA_DIR_VARIABLE} is unset, default ${dir}` : `${DATA_DIR_VARIABLE}=${set}`;
    throw new Error(
      `test data missing: ${path} does not exist (${source}); set ${DATA_DIR_VARIABLE} to the directory that holds ${relative}/ (see the README, "Test data")`,
    );
  }
  return path;
}
