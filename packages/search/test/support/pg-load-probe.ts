// Run in a fresh process by pg-load.test.ts: opens a PostgreSQL index on a port nothing listens on
// (the driver loads before it connects) and prints what the load left behind.
import { createRequire } from "node:module";
import { openPostgresIndex } from "../../src/index.js";

const had = "navigator" in globalThis;
const before = (globalThis as { navigator?: unknown }).navigator;
const opened = await openPostgresIndex({ connection: "postgres://cc@127.0.0.1:9/none", connectTimeoutMs: 2000 })();
const cache = createRequire(import.meta.url).cache;
console.log(
  JSON.stringify({
    had,
    has: "navigator" in globalThis,
    same: (globalThis as { navigator?: unknown }).navigator === before,
    opened: opened._tag,
    pgLoaded: Object.keys(cache).some((k) => /[\\/]pg[\\/]lib[\\/]index\.js$/.test(k)),
    fetchLoaded: (process as unknown as { moduleLoadList: string[] }).moduleLoadList.some((m) => m.includes("undici")),
  }),
);
