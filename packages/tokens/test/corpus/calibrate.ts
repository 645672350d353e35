/**
 * Fits the estimate's class weights against the exact counter. Run from the repository root:
 * `node --import tsx --conditions=development packages/tokens/test/corpus/calibrate.ts`
 * and copy the printed weights into `src/estimate.ts`. Two stages: the code point classes are fitted
 * on ordinary text (trajectories, CJK, emoji, code) and raised until no corpus is low in total;
 * then the seam weight (`mixes`) is set to the least value that leaves no encoded-data text of 20
 * tokens or more over 8 % low.
 */
import { classCounts, weighTokens, type ClassCounts, type ClassWeights } from "../../src/estimate.js";
import { rawTiktoken } from "../../src/tiktoken.js";
import type { Encoding } from "../../src/counter.js";
import { calibrationCorpora, encodedCorpora } from "./corpora.js";
import { encodedKinds } from "./generate.js";

const keys = [
  "letters",
  "digits",
  "punct",
  "space",
  "cjk",
  "otherBmp",
  "astral",
  "mixes",
  "caseChanges",
  "spaceDigits",
] as const;
const seams = ["mixes", "caseChanges", "spaceDigits"] as const;

function fit(
  samples: readonly { readonly c: ClassCounts; readonly t: number }[],
  free: readonly (typeof keys)[number][],
  fixed: Partial<ClassWeights> = {},
): ClassWeights {
  // Non-negative least squares on relative error, by projected coordinate descent over the `free` weights.
  const w = new Map<string, number>(keys.map((k) => [k, free.includes(k) ? 0.3 : (fixed[k] ?? 0)]));
  for (let iter = 0; iter < 2000; iter++) {
    for (const k of free) {
      let num = 0;
      let den = 0;
      for (const { c, t } of samples) {
        const scale = 1 / Math.max(t, 1);
        const rest = keys.reduce((s, j) => (j === k ? s : s + c[j] * w.get(j)!), 0);
        num += c[k] * (t - rest) * scale;
        den += c[k] * c[k] * scale;
      }
      // Seam weights stay ≤ 1, so joining two texts (one new seam at most) adds at most one token.
      if (den > 0)
        w.set(
          k,
          Math.min(Math.max(0, num / den), (seams as readonly string[]).includes(k) ? 1 : Number.POSITIVE_INFINITY),
        );
    }
  }
  return Object.fromEntries(keys.map((k) => [k, Number(w.get(k)!.toFixed(3))])) as unknown as ClassWeights;
}

const encoded = new Set<string>(encodedKinds);

for (const encoding of ["o200k_base", "cl100k_base"] as const satisfies readonly Encoding[]) {
  const raw = rawTiktoken(encoding);
  const corpora = new Map([...calibrationCorpora(), ...encodedCorpora()]);
  const all: { c: ClassCounts; t: number; corpus: string }[] = [];
  for (const [corpus, texts] of corpora)
    for (const text of texts) all.push({ c: classCounts(text), t: raw.count(text), corpus });
  // Stage 1: the code point classes, fitted on ordinary text (mixes held at 0).
  const ordinary = all.filter((x) => !encoded.has(x.corpus));
  const base = fit(
    ordinary,
    keys.filter((k) => !(seams as readonly string[]).includes(k)),
  );
  // Raise them until no ordinary corpus is low in total.
  let factor = 1;
  for (const [corpus] of corpora) {
    if (encoded.has(corpus)) continue;
    const s = all.filter((x) => x.corpus === corpus);
    const exact = s.reduce((a, x) => a + x.t, 0);
    const est = s.reduce((a, x) => a + weighTokens(x.c, base), 0);
    factor = Math.max(factor, exact / est);
  }
  const scaledBase = Object.fromEntries(
    keys.map((k) => [k, Number((base[k] * factor).toFixed(3))]),
  ) as unknown as Record<(typeof keys)[number], number>;
  // Stage 2: the seam weights, fitted on encoded data with the classes fixed.
  const seamFit = fit(
    all.filter((x) => encoded.has(x.corpus)),
    [...seams],
    scaledBase,
  );
  for (const k of seams) scaledBase[k] = seamFit[k];
  // Greedy raise: while some encoded text of 20 tokens or more is over 9 % low, raise by 1 % the
  // seam (capped at 1) or digit weight that removes the most shortfall per token it adds to the
  // ordinary corpora.
  const shortfall = (w: ClassWeights): number =>
    all.reduce(
      (a, x) => (encoded.has(x.corpus) && x.t >= 20 ? a + Math.max(0, x.t * 0.91 - weighTokens(x.c, w)) : a),
      0,
    );
  const ordinaryCost = (w: ClassWeights): number => ordinary.reduce((a, x) => a + weighTokens(x.c, w), 0);
  for (let step = 0; step < 2000 && shortfall(scaledBase) > 0; step++) {
    let best: (typeof keys)[number] | undefined;
    let bestScore = 0;
    for (const k of [...seams, "digits", "punct"] as const) {
      const next = {
        ...scaledBase,
        [k]: Math.min(k === "digits" || k === "punct" ? 3 : 1, Math.max(scaledBase[k], 0.05) * 1.01),
      };
      const gain = shortfall(scaledBase) - shortfall(next);
      const cost = Math.max(1e-9, ordinaryCost(next) - ordinaryCost(scaledBase));
      if (gain > 0 && gain / cost > bestScore) {
        bestScore = gain / cost;
        best = k;
      }
    }
    if (best === undefined) break;
    scaledBase[best] = Math.min(best === "digits" || best === "punct" ? 3 : 1, Math.max(scaledBase[best], 0.05) * 1.01);
  }
  const final: ClassWeights = { ...scaledBase };
  const scaled = Object.fromEntries(keys.map((k) => [k, Number(final[k].toFixed(3))])) as unknown as ClassWeights;
  console.log(encoding, "fit", JSON.stringify(base), "factor", factor.toFixed(3));
  console.log(encoding, "weights", JSON.stringify(scaled));
  for (const [corpus] of corpora) {
    const s = all.filter((x) => x.corpus === corpus);
    const exact = s.reduce((a, x) => a + x.t, 0);
    const est = s.reduce((a, x) => a + weighTokens(x.c, scaled), 0);
    const errs = s.filter((x) => x.t > 0).map((x) => (weighTokens(x.c, scaled) - x.t) / x.t);
    const lows = s.filter((x) => x.t >= 20).map((x) => (weighTokens(x.c, scaled) - x.t) / x.t);
    const mean = errs.reduce((a, e) => a + Math.abs(e), 0) / errs.length;
    const worst = errs.reduce((a, e) => (Math.abs(e) > Math.abs(a) ? e : a), 0);
    console.log(
      `  ${corpus}: n=${s.length} exact=${exact} est=${est} total ${(((est - exact) / exact) * 100).toFixed(1)}% mean|err| ${(mean * 100).toFixed(1)}% worst ${(worst * 100).toFixed(1)}% lowest (>=20 tokens) ${(Math.min(...lows) * 100).toFixed(1)}%`,
    );
  }
  raw.dispose();
}
