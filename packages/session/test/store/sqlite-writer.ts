// A separate OS process that appends to a shared SQLite file through the store (used by the
// multi-process test). Arguments: <db path> <writer name> <batches> <start at, epoch ms>.
// Writers wait for the common start time so their appends overlap.
import { openSqliteStore } from "@cc/session";

const [path, name, batches, startAt] = process.argv.slice(2);
if (path === undefined || name === undefined || batches === undefined)
  throw new Error("usage: sqlite-writer <path> <name> <batches>");
const opened = await openSqliteStore({ path })();
if (opened._tag === "Left") throw new Error(JSON.stringify(opened.left));
const store = opened.right;
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt ?? 0) - Date.now())));
const ids: number[][] = [];
for (let i = 0; i < Number(batches); i++) {
  const result = await store.append(
    "shared",
    [
      { role: "user", content: `${name}-${i}-a` },
      { role: "user", content: `${name}-${i}-b` },
    ],
    i,
  )();
  if (result._tag === "Left") throw new Error(JSON.stringify(result.left));
  ids.push(result.right.map((m) => m.id));
}
await store.close()();
process.stdout.write(JSON.stringify(ids));
