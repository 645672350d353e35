import { classCounts, estimateWeights, weighTokens } from "./src/estimate.ts";
import { rawTiktoken } from "./src/tiktoken.ts";
import { encodedKinds, encodedText } from "./test/corpus/generate.ts";
import { samples } from "./test/corpus/corpora.ts";
for (const enc of ["o200k_base", "cl100k_base"] as const) {
  const raw = rawTiktoken(enc);
  for (const kind of encodedKinds) {
    const ss = samples(encodedText(kind, 1, 100_000), 500);
    const errs = ss.map((s) => (weighTokens(classCounts(s), estimateWeights[enc]) - raw.count(s)) / raw.count(s));
    console.log(enc, kind, "worst", (Math.min(...errs) * 100).toFixed(1), "mean", ((errs.reduce((a, b) => a + b, 0) / errs.length) * 100).toFixed(1), JSON.stringify(ss[0]!.slice(0, 60)));
  }
}
