/**
 * A process of the restart check (bench/test/cost.test.ts): runs turns of a deterministic session
 * through a context manager with a policy, keeps the session's messages in a SQLite session store
 * (@cc/session) and the manager's snapshot as the stack's latest summary, and prints the prompt
 * of every turn as one JSON line.
 *
 * Usage: probe.ts <db> <from-turn> <to-turn>. A store that already holds the stack resumes from
 * it (its messages, its snapshot) — a restart; turns [from, to) are run and printed.
 */
import { createContextManager, type ContextManager } from "@cc/context";
import { decodeSnapshot } from "@cc/test-support/context";
import type { Message } from "@cc/messages";
import { openSqliteStore } from "@cc/session";
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";

const STACK = "restart";
const WORDS = ["parse_config", "TimeDelta", "src/app.py", "retry", "bucket", "render", "value_error"];

/** Turn `i` of the session: an assistant call and its tool result (deterministic). */
export function sessionTurn(i: number): readonly Message[] {
  const words = Array.from({ length: 60 + ((i * 37) % 90) }, (_, k) => WORDS[(i * 7 + k) % WORDS.length]).join(" ");
  return [
    {
      role: "assistant",
      content: `step ${i}`,
      toolCalls: [{ id: `call_${i}`, name: "bash", arguments: JSON.stringify({ command: `cat f${i}.py` }) }],
    },
    { role: "tool", toolCallId: `call_${i}`, content: `output ${i}: ${words}` },
  ];
}

const fail = (what: string, e: unknown): never => {
  console.error(`${what}: ${JSON.stringify(e)}`);
  process.exit(1);
};

async function main(): Promise<void> {
  const [path, fromArg, toArg] = process.argv.slice(2);
  if (path === undefined || fromArg === undefined || toArg === undefined)
    return fail("usage", "probe.ts <db> <from> <to>");
  const store = await openSqliteStore({ path })();
  if (E.isLeft(store)) return fail("open", store.left);
  const s = store.right;
  const stored = await s.messagesAfter(STACK, 0)();
  if (E.isLeft(stored)) return fail("read", stored.left);
  const latest = await s.latestSummary(STACK)();
  if (E.isLeft(latest)) return fail("summary", latest.left);
  let resume: ReturnType<ContextManager["snapshot"]>;
  if (O.isSome(latest.right)) {
    const snap = decodeSnapshot(JSON.parse(latest.right.value.content));
    if (E.isLeft(snap)) return fail("snapshot", snap.left);
    resume = snap.right;
  }
  const manager = createContextManager({
    maxTokens: 2000,
    preserveLast: 2,
    noteTokens: 200,
    namespace: STACK,
    now: () => 1_700_000_000_000,
    // A fresh session's note key is fixed so that two separate runs seal their notes alike; a
    // resumed one takes its key from the snapshot (as a restarted process does).
    policy: { kind: "hermes", minTurnsBetween: 0 },
    ...(resume === undefined ? { noteKey: "restart-probe-note-key" } : { resume }),
  });
  let history: Message[] = stored.right.map((m) => m.message);
  for (let i = Number(fromArg); i < Number(toArg); i++) {
    const turn = sessionTurn(i);
    const appended = await s.append(STACK, turn, 1_700_000_000_000 + i)();
    if (E.isLeft(appended)) return fail("append", appended.left);
    history = [...history, ...turn];
    const r = await manager.compact(history);
    console.log(JSON.stringify({ turn: i, compacted: r.compacted, prompt: r.messages }));
  }
  const last = await s.lastMessageId(STACK)();
  if (E.isLeft(last)) return fail("last id", last.left);
  const previousId = O.isSome(latest.right) ? latest.right.value.id : null;
  const saved = await s.saveSummary(
    STACK,
    { content: JSON.stringify(manager.snapshot()), coversUpTo: last.right, previousId },
    1_700_000_000_000,
  )();
  if (E.isLeft(saved)) return fail("save", saved.left);
  await s.close()();
}

await main();
