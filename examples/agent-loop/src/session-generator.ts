/**
 * A deterministic, realistic agent session: system prompt, user task, assistant tool calls, large
 * tool outputs, errors, and later turns that refer back to earlier files and identifiers.
 * Same seed → same session, byte for byte.
 *
 * @module session-generator
 */
import type { Message } from "@cc/messages";

/** One turn: the messages the agent loop appends at once. */
export type Turn = readonly Message[];

/** Options of {@link generateSession}. */
export interface SessionOptions {
  /** PRNG seed (default 7). */
  readonly seed?: number;
  /** Tool-using turns after the task (default 24). */
  readonly turns?: number;
  /** Lines of a large tool output (default 120). */
  readonly outputLines?: number;
  /**
   * Tool-using turns (0-based) that run the whole test suite verbosely: an output about six
   * times `outputLines` long, the kind of turn that jumps straight to hard pressure. Default none.
   */
  readonly fullSuiteAt?: readonly number[];
}

function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const FILES = [
  "src/billing/invoice.py",
  "src/billing/tax_rules.py",
  "src/api/routes.py",
  "src/models/customer.py",
  "tests/test_invoice.py",
  "src/utils/money.py",
];
const IDENTS = ["compute_total", "apply_discount", "TaxRuleSet", "round_half_even", "CustomerRecord", "load_invoice"];

/**
 * Generates the session as turns (the first turn holds the system prompt and the user task).
 *
 * @example generateSession({ seed: 1, turns: 4 }).flat().length // 2 + 4 × 2 + closing turns
 */
export function generateSession(options: SessionOptions = {}): readonly Turn[] {
  const rand = prng(options.seed ?? 7);
  const n = options.turns ?? 24;
  const lines = options.outputLines ?? 120;
  const fullSuite = new Set(options.fullSuiteAt ?? []);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const turns: Turn[] = [
    [
      {
        role: "system",
        content:
          "You are a careful coding agent. Use the tools to inspect and edit the repository. Keep answers short.",
      },
      {
        role: "user",
        content: `Invoices with a discount are off by one cent. Fix ${FILES[0]} so that compute_total rounds like tests/test_invoice.py expects.`,
      },
    ],
  ];
  for (let i = 0; i < n; i++) {
    const id = `call_${i}`;
    const file = FILES[i % FILES.length]!;
    const ident = pick(IDENTS);
    const kind = fullSuite.has(i) ? "suite" : i % 6 === 4 ? "test" : i % 6 === 5 ? "edit" : "read";
    const args =
      kind === "suite"
        ? { command: "pytest -vv tests" }
        : kind === "test"
          ? { command: "pytest -q tests/test_invoice.py" }
          : kind === "edit"
            ? { path: file, find: ident }
            : { path: file };
    const name = kind === "test" || kind === "suite" ? "bash" : kind === "edit" ? "edit_file" : "read_file";
    let output: string;
    if (kind === "suite") {
      const cases = Array.from(
        { length: lines * 6 },
        (_, k) =>
          `tests/test_${k % 2 === 0 ? "invoice" : "money"}.py::test_${pick(IDENTS).toLowerCase()}_${k} ${k % 37 === 5 ? "FAILED" : "PASSED"} [${String(Math.floor((100 * (k + 1)) / (lines * 6))).padStart(3)}%]`,
      );
      const failed = cases.filter((c) => c.includes(" FAILED ")).length;
      output = `${cases.join("\n")}\nFAILED tests/test_invoice.py::test_discount_rounding - AssertionError: assert 10.01 == 10.0\n${failed} failed, ${cases.length - failed} passed`;
    } else if (kind === "read") {
      output = Array.from(
        { length: lines },
        (_, k) =>
          `${String(k + 1).padStart(4)}  ${k % 9 === 0 ? `def ${pick(IDENTS).toLowerCase()}_${k}(value, rate):` : `    total = ${ident}(value) * rate + ${Math.floor(rand() * 1000) / 100}  # ${file}`}`,
      ).join("\n");
    } else if (kind === "test") {
      output = `F.F..\nFAILED tests/test_invoice.py::test_discount_rounding - AssertionError: assert 10.01 == 10.0\nTraceback (most recent call last):\n  File "${FILES[0]}", line ${40 + i}, in compute_total\n    return round_half_even(total)\nAssertionError: expected 10.0\n${"captured log line\n".repeat(lines / 4)}2 failed, 3 passed`;
    } else {
      output = `Edited ${file}: replaced ${ident} call on line ${30 + i}.`;
    }
    const thought =
      kind === "suite"
        ? "Running the whole test suite to see what else compute_total breaks."
        : i > 6 && i % 3 === 0
          ? `Going back to ${FILES[i % 3]} and ${IDENTS[i % 4]} seen earlier.`
          : `Next I will ${kind} ${file}.`;
    turns.push([
      { role: "assistant", content: thought, toolCalls: [{ id, name, arguments: JSON.stringify(args) }] },
      { role: "tool", content: output, toolCallId: id, name },
    ]);
  }
  turns.push([{ role: "user", content: "Where did compute_total lose the cent? Check src/billing/invoice.py again." }]);
  return turns;
}
