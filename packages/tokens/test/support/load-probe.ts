/**
 * Run in a fresh Node process: imports the package named on the command line (default
 * `@cc/tokens`, or a path to a built `dist/index.js`), estimates, then counts exactly, and prints
 * as JSON which files of @dqbd/tiktoken Node's module cache held after each step.
 *
 *   node --import tsx --conditions=development load-probe.ts [specifier]
 */
import { createRequire } from "node:module";

interface TokensApi {
  readonly estimateTokens: (text: string) => number;
  readonly estimateCounter: () => { count(text: string): number; dispose(): void };
  readonly tiktokenCounter: () => { count(text: string): number; dispose(): void };
}

const cache = createRequire(import.meta.url).cache;
const marker = "/node_modules/@dqbd/tiktoken/";
const loaded = (): readonly string[] =>
  Object.keys(cache)
    .map((file) => file.replaceAll("\\", "/"))
    .filter((file) => file.includes(marker))
    .map((file) => file.slice(file.lastIndexOf(marker) + marker.length));

const specifier = process.argv[2] ?? "@cc/tokens";
const before = loaded();
const api = (await import(specifier)) as TokensApi;
const afterImport = loaded();
const estimator = api.estimateCounter();
const estimates = [api.estimateTokens("hello world, 你好 🙂"), estimator.count("const x = 1;")];
estimator.dispose();
const afterEstimate = loaded();
const exact = api.tiktokenCounter();
const exactCount = exact.count("hello world");
exact.dispose();
const afterExact = loaded();

process.stdout.write(`${JSON.stringify({ before, afterImport, afterEstimate, afterExact, estimates, exactCount })}\n`);
