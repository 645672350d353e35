/**
 * How low the estimate is per text on the full corpus of real agent runs (`CC_DATA_DIR`: the
 * SWE-agent trajectories and the mini-swe-agent runs). Run from the repository root:
 * `node --import tsx --conditions=development packages/tokens/test/corpus/per-text.ts`
 * It prints, per encoding, how many message texts of 20 tokens or more the estimate puts more than
 * 10 % below `encode_ordinary`, the lowest ratio, and the lowest texts (the README quotes it).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../../../../.ci/data.js";
import { estimateCounter, type Encoding } from "../../src/index.js";
import { rawTiktoken } from "../../src/tiktoken.js";

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));

/** Every message text (string content, text parts, SWE-agent thoughts) of every transcript under `root`. */
export function corpusTexts(root: string): string[] {
  const out: string[] = [];
  const push = (content: unknown): void => {
    if (typeof content === "string") out.push(content);
    else if (Array.isArray(content))
      for (const p of content as unknown[])
        if (typeof p === "object" && p !== null && typeof (p as { text?: unknown }).text === "string")
          out.push((p as { text: string }).text);
  };
  for (const file of walk(root)
    .filter((f) => f.endsWith(".traj") || f.endsWith(".traj.json"))
    .sort()) {
    const doc = JSON.parse(readFileSync(file, "utf8")) as { history?: unknown[]; messages?: unknown[] };
    for (const m of doc.history ?? doc.messages ?? []) {
      if (typeof m !== "object" || m === null) continue;
      push((m as { content?: unknown }).content);
      push((m as { thought?: unknown }).thought);
    }
  }
  return out;
}

const texts = corpusTexts(dataDir());
for (const encoding of ["o200k_base", "cl100k_base"] as const satisfies readonly Encoding[]) {
  const raw = rawTiktoken(encoding);
  const estimate = estimateCounter({ encoding });
  const rows: { ratio: number; exact: number; text: string }[] = [];
  for (const text of texts) {
    const exact = raw.count(text);
    if (exact >= 20) rows.push({ ratio: estimate.count(text) / exact, exact, text });
  }
  rows.sort((a, b) => a.ratio - b.ratio);
  const low = rows.filter((r) => r.ratio < 0.9).length;
  console.log(
    `${encoding}: ${rows.length} texts of ≥ 20 tokens, ${low} (${((100 * low) / rows.length).toFixed(1)} %) more than 10 % low, lowest ratio ${rows[0]?.ratio.toFixed(3)}`,
  );
  for (const r of rows.slice(0, 5))
    console.log(`  ${r.ratio.toFixed(3)}  ${r.exact} tokens  ${JSON.stringify(r.text.slice(0, 100))}`);
  raw.dispose();
}
