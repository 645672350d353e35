/**
 * Choosing the model for summary calls: the configured one, else the cheapest listed model
 * (by output cost) of at least the requested strength tier.
 *
 * @module model-choice
 */
import * as O from "fp-ts/lib/Option.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { pipe } from "fp-ts/lib/function.js";
import { guardProvider } from "./providers/guard.js";
import type { ModelInfo, Provider, ProviderError } from "@cc/messages";
import type { Strength } from "@cc/messages/internal";

/** Strength tiers, weakest first (seed 000: very_low/low = cheapest, average = recommended). */
export const strengthTiers: readonly Strength[] = ["very_low", "low", "average", "high", "very_high"];

/** Rank of a tier in {@link strengthTiers} (0 = very_low). */
export function strengthRank(strength: Strength): number {
  return strengthTiers.indexOf(strength);
}

/**
 * Why no compaction model could be chosen.
 *
 * @example
 * const r = await chooseCompactionModel(provider, "")();
 * if (r._tag === "Left" && r.left._tag === "NoCompactionModel") console.warn(r.left.message);
 */
export type ModelChoiceError =
  | { readonly _tag: "NoCompactionModel"; readonly message: string }
  | { readonly _tag: "ModelListFailed"; readonly error: ProviderError };

/**
 * The cheapest model by output cost (then input cost, then id), among models with a known output
 * cost and — when `minStrength` is given — a strength tier at least that strong (pure).
 *
 * @example cheapestModel([{ id: "a", outputCostPerMTok: 10 }, { id: "b", outputCostPerMTok: 2 }]) // some({ id: "b", … })
 */
export function cheapestModel(models: readonly ModelInfo[], minStrength?: Strength): O.Option<ModelInfo> {
  const min = minStrength === undefined ? -1 : strengthRank(minStrength);
  const eligible = models.filter(
    (m) =>
      m.outputCostPerMTok !== undefined &&
      Number.isFinite(m.outputCostPerMTok) &&
      m.outputCostPerMTok >= 0 &&
      (min < 0 || (m.strength !== undefined && strengthRank(m.strength) >= min)),
  );
  const sorted = [...eligible].sort(
    (a, b) =>
      a.outputCostPerMTok! - b.outputCostPerMTok! ||
      (a.inputCostPerMTok ?? Infinity) - (b.inputCostPerMTok ?? Infinity) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return O.fromNullable(sorted[0]);
}

/**
 * `compactionModel` when non-empty; otherwise the {@link cheapestModel} the provider lists;
 * otherwise a typed error.
 *
 * @example await chooseCompactionModel(offlineProvider(), "")() // Right("offline-extractive")
 */
export function chooseCompactionModel(
  provider: Provider,
  compactionModel: string,
  minStrength?: Strength,
): TE.TaskEither<ModelChoiceError, string> {
  if (compactionModel !== "") return TE.right(compactionModel);
  return pipe(
    guardProvider(provider).listModels(),
    TE.mapLeft((error): ModelChoiceError => ({ _tag: "ModelListFailed", error })),
    TE.chain((models) =>
      pipe(
        cheapestModel(models, minStrength),
        O.match(
          () =>
            TE.left<ModelChoiceError, string>({
              _tag: "NoCompactionModel",
              message: `provider "${provider.name}" lists ${models.length} model(s), none with a known output cost${minStrength === undefined ? "" : ` and strength ≥ ${minStrength}`}; set compactionModel`,
            }),
          (m) => TE.right<ModelChoiceError, string>(m.id),
        ),
      ),
    ),
  );
}
