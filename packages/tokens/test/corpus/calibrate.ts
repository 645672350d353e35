/**
 * Fits the estimate's class weights against the exact counter. Run from the repository root:
 * `node --import tsx --conditions=development packages/tokens/test/corpus/calibrate.ts`
 * and copy the printed weights into `src/estimate.ts`.
 */
import { classCounts, weighTokens, type ClassCounts, type ClassWeights } from "../../src/estimate.js";
import { rawTiktoken } from "../../src/tiktoken.js";
import type { Encoding } from "../../src/counter.js";
import { calibrationCorpora } from "./corpora.js";

const keys = ["letters", "digits", "punct", "space", "cjk", "otherBmp", "astral"] as const;

function fit(samples: readonly { readonly c: ClassCounts; readonly t: number }[]): ClassWeights {
  // Non-negative least squares on relative error, by projected coordinate descent.
  const w = new Map<string, number>(keys.map((k) => [k, 0.3]));
  for (let iter = 0; iter < 2000; iter++) {
    for (const k of keys) {
      let num = 0;
      let den = 0;
      for (const { c, t } of samples) {
        const scale = 1 / Math.max(t, 1);
        const rest = keys.reduce((s, j) => (j === k ? s : s + c[j] * w.get(j)!), 0);
        num += c[k] * (t - rest) * scale;
        den += c[k] * c[k] * scale;
      }
      if (den > 0) w.set(k, Math.max(0, num / den));
    }
  }
  return Object.fromEntries(keys.map((k) => [k, Number(w.get(k)!.toFixed(3))])) as unknown as ClassWeights;
}

for (const encoding of ["o200k_base", "cl100k_base"] as const satisfies readonly Encoding[]) {
  const raw = rawTiktoken(encoding);
  const corpora = calibrationCorpora();
  const all: { c: ClassCounts; t: number; corpus: string }[] = [];
  for (const [corpus, texts] of corpora) for (const text of texts) all.push({ c: classCounts(text), t: raw.count(text), corpus });
  const w = fit(all);
  // Raise all weights until no corpus is low in total.
  let factor = 1;
  for (const [corpus] of corpora) {
    const s = all.filter((x) => x.corpus === corpus);
    const exact = s.reduce((a, x) => a + x.t, 0);
    const est = s.reduce((a, x) => a + weighTokens(x.c, w), 0);
    factor = Math.max(factor, (exact * 1.02) / est);
  }
  const scaled = Object.fromEntries(keys.map((k) => [k, Number((w[k] * factor).toFixed(3))])) as unknown as ClassWeights;
  console.log(encoding, "fit", JSON.stringify(w), "factor", factor.toFixed(3));
  console.log(encoding, "weights", JSON.stringify(scaled));
  for (const [corpus] of corpora) {
    const s = all.filter((x) => x.corpus === corpus);
    const exact = s.reduce((a, x) => a + x.t, 0);
    const est = s.reduce((a, x) => a + weighTokens(x.c, scaled), 0);
    const errs = s.filter((x) => x.t > 0).map((x) => (weighTokens(x.c, scaled) - x.t) / x.t);
    const mean = errs.reduce((a, e) => a + Math.abs(e), 0) / errs.length;
    const worst = errs.reduce((a, e) => (Math.abs(e) > Math.abs(a) ? e : a), 0);
    console.log(`  ${corpus}: n=${s.length} exact=${exact} est=${est} total ${(((est - exact) / exact) * 100).toFixed(1)}% mean|err| ${(mean * 100).toFixed(1)}% worst ${(worst * 100).toFixed(1)}%`);
  }
  raw.dispose();
}
