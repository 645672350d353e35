import { get_encoding } from "@dqbd/tiktoken";
import { estimateCounter } from "@cc/tokens";
import * as fc from "fast-check";
const gens: Record<string, fc.Arbitrary<string>> = {
  listing: fc.array(fc.tuple(fc.constantFrom("drwxr-xr-x", "-rw-r--r--", "lrwxrwxrwx", "-rwxr-xr-x"), fc.nat(40), fc.constantFrom("root", "user", "www-data"), fc.nat(99999), fc.constantFrom("Dec", "Jan", "Nov"), fc.integer({ min: 1, max: 31 }), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.stringMatching(/^[a-z_]{1,12}[0-9]{0,3}(\.[a-z]{1,3})?$/)), { minLength: 3, maxLength: 60 }).map((rows) => rows.map(([m, l, u, s, mo, d, h, mi, n]) => `${m} ${String(l).padStart(2)} ${u} ${u} ${String(s).padStart(6)} ${mo} ${String(d).padStart(2)} ${String(h).padStart(2, "0")}:${String(mi).padStart(2, "0")} ${n}`).join("\n")),
  table: fc.array(fc.array(fc.oneof(fc.nat(100000).map(String), fc.stringMatching(/^[A-Za-z]{1,8}$/), fc.double({ min: 0, max: 1000, noNaN: true }).map((x) => x.toFixed(3))), { minLength: 3, maxLength: 8 }), { minLength: 3, maxLength: 40 }).map((rows) => rows.map((r) => `| ${r.join(" | ")} |`).join("\n")),
  log: fc.array(fc.tuple(fc.date({ min: new Date(2020, 0, 1), max: new Date(2030, 0, 1), noInvalidDate: true }), fc.constantFrom("INFO", "WARN", "ERROR", "DEBUG"), fc.stringMatching(/^[a-z.]{3,20}$/), fc.nat(65535), fc.stringMatching(/^[a-z ]{5,40}$/)), { minLength: 3, maxLength: 40 }).map((rows) => rows.map(([d, l, m, p, t]) => `${d.toISOString()} [${l}] ${m}:${p} ${t}`).join("\n")),
  shortLines: fc.array(fc.stringMatching(/^'?[A-Z]{1,3}'?$/), { minLength: 10, maxLength: 80 }).map((l) => l.join("\n")),
  any: fc.string({ unit: "grapheme", minLength: 20, maxLength: 400 }),
  ascii: fc.string({ unit: fc.constantFrom(..." aA1.-_\n'"), minLength: 40, maxLength: 400 }),
};
for (const enc of ["o200k_base", "cl100k_base"] as const) {
  const e = get_encoding(enc);
  const est = estimateCounter({ encoding: enc });
  for (const [name, g] of Object.entries(gens)) {
    let min = Infinity, ex = "";
    for (const t of fc.sample(g, { numRuns: 3000, seed: 42 })) {
      const exact = e.encode_ordinary(t).length;
      if (exact < 20) continue;
      const r = est.count(t) / exact;
      if (r < min) { min = r; ex = t.slice(0, 80); }
    }
    console.log(enc, name, min.toFixed(3), JSON.stringify(ex));
  }
  e.free();
}
