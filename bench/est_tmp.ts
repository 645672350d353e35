import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { get_encoding } from "@dqbd/tiktoken";
import { estimateCounter } from "@cc/tokens";
const root = "/work/shared/data";
const texts: { src: string; text: string }[] = [];
const walk = (d: string): string[] => readdirSync(d).flatMap((f) => { const p = join(d, f); return statSync(p).isDirectory() ? walk(p) : [p]; });
const pushContent = (src: string, c: unknown) => {
  if (typeof c === "string") texts.push({ src, text: c });
  else if (Array.isArray(c)) for (const p of c) if (p && typeof p === "object" && typeof (p as any).text === "string") texts.push({ src, text: (p as any).text });
};
for (const f of walk(root).filter((p) => p.endsWith(".traj") || p.endsWith(".json"))) {
  const j = JSON.parse(readFileSync(f, "utf8"));
  const msgs = j.history ?? j.messages ?? j.trajectory ?? [];
  for (const m of msgs) { pushContent(f, m.content); if (typeof m.thought === "string") pushContent(f, m.thought); }
}
for (const enc of ["o200k_base", "cl100k_base"] as const) {
  const e = get_encoding(enc);
  const est = estimateCounter({ encoding: enc });
  let low = 0, n = 0, worst = 1; const lows: { r: number; exact: number; text: string }[] = [];
  for (const t of texts) {
    const exact = e.encode_ordinary(t.text).length;
    if (exact < 20) continue;
    n++;
    const r = est.count(t.text) / exact;
    if (r < 0.9) { low++; lows.push({ r, exact, text: t.text }); }
    worst = Math.min(worst, r);
  }
  lows.sort((a, b) => a.r - b.r);
  console.log(enc, { texts: n, low, worst: worst.toFixed(3) });
  for (const l of lows.slice(0, 6)) console.log("  ", l.r.toFixed(3), l.exact, JSON.stringify(l.text.slice(0, 160)));
  e.free();
}
