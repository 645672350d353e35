// A separate OS process that appends to a stack kept in a PostgreSQL-backed LangGraph BaseStore
// through the summary store, then tries to save the stack's first summary (used by the
// multi-process test). Arguments: <database url> <writer name> <appends> <start at, epoch ms>.
// Writers wait for the common start time so their appends overlap. Prints what was acknowledged.
import * as E from "fp-ts/lib/Either.js";
import { baseStoreSummaryStore } from "../src/index.js";
import { PgBaseStore } from "./pg-base-store.js";

const [url, name, appends, startAt] = process.argv.slice(2);
if (url === undefined || name === undefined || appends === undefined)
  throw new Error("usage: pg-writer <url> <name> <appends> <start at>");
const backing = await PgBaseStore.open(url, false);
const made = baseStoreSummaryStore(backing, { namespace: ["race"] });
if (E.isLeft(made)) throw new Error(made.left.message);
const store = made.right;
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt ?? 0) - Date.now())));
const acked = await Promise.all(
  Array.from({ length: Number(appends) }, async (_, i) => {
    const r = await store.append("shared", [{ role: "user", content: `${name}-${i}` }], i)();
    if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
    return r.right.map((m) => ({ id: m.id, content: m.message.content }));
  }),
);
const summary = await store.saveSummary(
  "shared",
  { content: `summary by ${name}`, coversUpTo: 1, previousId: null },
  1,
)();
await store.close()();
await backing.end();
process.stdout.write(
  JSON.stringify({ acked: acked.flat(), summary: E.isRight(summary) ? "saved" : summary.left._tag }),
);
