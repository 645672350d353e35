import { openSqliteIndex } from "@cc/search";
import { makeEntries } from "../search/corpus.js";
const n = Number(process.argv[3]); const namespaces = n / 1000;
const o = await openSqliteIndex({ path: process.argv[2]! })();
if (o._tag === "Left") throw new Error(JSON.stringify(o.left));
const index = o.right;
for (let i = 0; i < n; i += 100_000) {
  const batch = makeEntries(Math.min(100_000, n - i)).map((e, j) => ({ ...e, id: `s${i + j}`, namespace: `t${(i + j) % namespaces}` }));
  for (let k = 0; k < batch.length; k += 5000) { const w = await index.write(batch.slice(k, k + 5000))(); if (w._tag === "Left") throw new Error(JSON.stringify(w.left)); }
}
await index.close()();
