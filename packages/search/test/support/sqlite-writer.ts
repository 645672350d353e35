// Child process for the multi-process durability test: writes `count` entries one transaction
// at a time into the SQLite file given on the command line, then exits 0 only if all succeeded.
import { entry } from "../../src/contract.js";
import { openSqliteIndex } from "../../src/sqlite.js";

const [path, name, countText] = process.argv.slice(2);
const count = Number(countText);
const opened = await openSqliteIndex({ path: path ?? "", busyTimeoutMs: 30_000 })();
if (opened._tag === "Left") {
  console.error(JSON.stringify(opened.left));
  process.exit(2);
}
const index = opened.right;
let failures = 0;
for (let i = 0; i < count; i++) {
  const r = await index.write([
    entry({
      id: `${name}-${i}`,
      namespace: String(name),
      summary: `written by ${name} number ${i}`,
      content: `payload ${i}`,
    }),
  ])();
  if (r._tag === "Left") {
    failures++;
    console.error(JSON.stringify(r.left));
  }
}
await index.close()();
process.exit(failures === 0 ? 0 : 1);
