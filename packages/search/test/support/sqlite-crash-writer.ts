// Child process for the crash test: writes batches of `size` entries (namespace `b<n>`, one
// transaction each) into the SQLite index at the path given, from batch `first` on, and prints
// `ack <n>` after each acknowledged batch, until it is killed.
import { entry } from "../../src/contract.js";
import { openSqliteIndex } from "../../src/sqlite.js";

const [path, firstText, sizeText] = process.argv.slice(2);
const size = Number(sizeText);
const opened = await openSqliteIndex({ path: path ?? "", busyTimeoutMs: 30_000 })();
if (opened._tag === "Left") {
  console.error(JSON.stringify(opened.left));
  process.exit(2);
}
const index = opened.right;
const filler = "recorded output line ".repeat(100);
for (let n = Number(firstText); ; n++) {
  const batch = Array.from({ length: size }, (_, i) =>
    entry({ id: `e${i}`, namespace: `b${n}`, summary: `batch ${n} entry ${i}`, content: `${filler} ${n}/${i}` }),
  );
  const r = await index.write(batch)();
  if (r._tag === "Left") {
    console.error(JSON.stringify(r.left));
    process.exit(1);
  }
  process.stdout.write(`ack ${n}\n`);
}
