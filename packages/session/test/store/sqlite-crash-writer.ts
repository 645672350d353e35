// Child process for the crash test: appends batches of `size` messages (`b<n>-<i>`, one
// transaction each) to stack "crash" of the SQLite store at the path given, from batch `first`
// on, and prints `ack <n>` after each acknowledged batch, until it is killed.
import { openSqliteStore } from "@cc/session";

const [path, firstText, sizeText] = process.argv.slice(2);
const size = Number(sizeText);
const opened = await openSqliteStore({ path: path ?? "", busyTimeoutMs: 30_000 })();
if (opened._tag === "Left") {
  console.error(JSON.stringify(opened.left));
  process.exit(2);
}
const store = opened.right;
const filler = "tool output line ".repeat(100);
for (let n = Number(firstText); ; n++) {
  const batch = Array.from({ length: size }, (_, i) => ({ role: "user" as const, content: `b${n}-${i} ${filler}` }));
  const r = await store.append("crash", batch, n)();
  if (r._tag === "Left") {
    console.error(JSON.stringify(r.left));
    process.exit(1);
  }
  process.stdout.write(`ack ${n}\n`);
}
