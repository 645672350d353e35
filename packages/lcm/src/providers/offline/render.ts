/**
 * Rendering {@link Facts} as a summary within a token budget: the most useful facts are chosen
 * first (goal, last error, last step, touched files, recent steps, …), then printed in a fixed
 * section order. Selection is linear: facts are bucketed by tier, most recent first in a tier.
 *
 * @module providers/offline/render
 */
import type { TokenCounter } from "@cc/tokens";
import { headOf } from "../../clip.js";
import { clipLine, type Facts } from "./facts.js";
import type { SummaryStyle } from "./parse.js";

type SectionId = "goal" | "files" | "seen" | "identifiers" | "steps" | "errors" | "decisions" | "latest";

interface Section {
  readonly id: SectionId;
  /** Detailed style: a header line, items as "- " lines; or an inline label with items joined by ", ". */
  readonly detailed: { readonly label: string; readonly inline: boolean };
  readonly bullet: { readonly label: string; readonly inline: boolean } | undefined;
}

const SECTIONS: readonly Section[] = [
  { id: "goal", detailed: { label: "Goal:", inline: true }, bullet: { label: "- Goal:", inline: true } },
  { id: "files", detailed: { label: "Files touched:", inline: true }, bullet: { label: "- Files:", inline: true } },
  { id: "seen", detailed: { label: "Other paths seen:", inline: true }, bullet: undefined },
  {
    id: "identifiers",
    detailed: { label: "Identifiers:", inline: true },
    bullet: { label: "- Identifiers:", inline: true },
  },
  {
    id: "steps",
    detailed: { label: "Commands (last outcome of each):", inline: false },
    bullet: { label: "", inline: false },
  },
  { id: "errors", detailed: { label: "Errors seen:", inline: false }, bullet: { label: "", inline: false } },
  {
    id: "decisions",
    detailed: { label: "Decisions and findings:", inline: false },
    bullet: { label: "", inline: false },
  },
  { id: "latest", detailed: { label: "Latest:", inline: true }, bullet: { label: "- Now:", inline: true } },
];

interface Item {
  readonly section: SectionId;
  /** 0 (first to drop) … 9 (kept first). */
  readonly tier: number;
  readonly text: string;
}

/** How many facts of each kind a style may show at most. */
const LIMITS: {
  readonly [S in SummaryStyle]: {
    readonly goalChars: number;
    readonly steps: number;
    readonly errors: number;
    readonly decisions: number;
    readonly identifiers: number;
    readonly seen: number;
  };
} = {
  detailed: { goalChars: 480, steps: 40, errors: 12, decisions: 12, identifiers: 24, seen: 12 },
  bullet: { goalChars: 240, steps: 8, errors: 3, decisions: 0, identifiers: 10, seen: 0 },
};

const lastOf = <T>(xs: readonly T[], n: number): readonly T[] => (n <= 0 ? [] : xs.slice(Math.max(0, xs.length - n)));

function itemsOf(facts: Facts, style: SummaryStyle): readonly Item[] {
  const lim = LIMITS[style];
  const items: Item[] = [];
  if (facts.goal !== "") items.push({ section: "goal", tier: 9, text: clipLine(facts.goal, lim.goalChars) });
  for (const p of facts.touchedPaths) items.push({ section: "files", tier: 7, text: p.text });
  for (const p of lastOf(facts.seenPaths, lim.seen)) items.push({ section: "seen", tier: 1, text: p.text });
  for (const id of facts.identifiers.slice(0, lim.identifiers))
    items.push({ section: "identifiers", tier: 3, text: id });
  const steps = lastOf(facts.steps, lim.steps);
  steps.forEach((s, i) => {
    const text =
      style === "bullet"
        ? `- ran \`${s.action}\`${s.outcome === "" ? "" : ` → ${s.outcome}`}`
        : `- \`${s.action}\`${s.outcome === "" ? "" : ` → ${s.outcome}`}`;
    items.push({ section: "steps", tier: i === steps.length - 1 ? 8 : 5, text });
  });
  const errors = lastOf(facts.errors, lim.errors);
  errors.forEach((e, i) =>
    items.push({
      section: "errors",
      tier: i === errors.length - 1 ? 8 : 4,
      text: style === "bullet" ? `- error: ${e.text}` : `- ${e.text}`,
    }),
  );
  for (const d of lastOf(facts.decisions, lim.decisions))
    items.push({ section: "decisions", tier: 2, text: `- ${d.text}` });
  if (facts.latest !== "") items.push({ section: "latest", tier: 6, text: facts.latest });
  return items;
}

function layout(style: SummaryStyle, id: SectionId): { readonly label: string; readonly inline: boolean } | undefined {
  const s = SECTIONS.find((x) => x.id === id);
  return s === undefined ? undefined : style === "bullet" ? s.bullet : s.detailed;
}

/** Prints the chosen items (`chosen[i]` for `items[i]`) section by section. */
function print(items: readonly Item[], chosen: readonly boolean[], style: SummaryStyle): string {
  const out: string[] = [];
  for (const section of SECTIONS) {
    const look = layout(style, section.id);
    if (look === undefined) continue;
    const texts = items.filter((it, i) => chosen[i] === true && it.section === section.id).map((it) => it.text);
    if (texts.length === 0) continue;
    if (look.inline) out.push(`${look.label} ${texts.join(", ")}`);
    else {
      if (look.label !== "") out.push(look.label);
      out.push(...texts);
    }
  }
  return out.join("\n");
}

/** The longest head of `text` (plus "…") that `counter` counts within `budget` ("" if none). Binary search. */
export function fitHead(text: string, budget: number, counter: TokenCounter): string {
  if (counter.count(text) <= budget) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (counter.count(`${headOf(text, mid)}…`) <= budget) lo = mid;
    else hi = mid - 1;
  }
  const head = headOf(text, lo).trimEnd();
  return head === "" ? "" : `${head}…`;
}

/**
 * Renders `facts` in `style` within `budget` tokens as `counter` counts them (pure).
 * Returns "" when not even a clipped goal fits.
 */
export function renderSummary(facts: Facts, style: SummaryStyle, budget: number, counter: TokenCounter): string {
  const items = [...itemsOf(facts, style)];
  const chosen = items.map(() => false);
  const opened = new Set<SectionId>();
  let used = 0;
  // Tier by tier, most recent first within a tier (items are in source order).
  const byTier: number[][] = Array.from({ length: 10 }, () => []);
  items.forEach((it, i) => byTier[it.tier]!.push(i));
  for (let tier = 9; tier >= 0; tier--) {
    const bucket = byTier[tier]!;
    for (let k = bucket.length - 1; k >= 0; k--) {
      const i = bucket[k]!;
      const it = items[i]!;
      const look = layout(style, it.section);
      if (look === undefined) continue;
      const header = opened.has(it.section) ? 0 : look.label === "" ? 0 : counter.count(look.label) + 1;
      const cost = counter.count(it.text) + 1 + header;
      if (used + cost <= budget) {
        chosen[i] = true;
        used += cost;
        opened.add(it.section);
      } else if (it.section === "goal") {
        const clipped = fitHead(it.text, budget - header - 1, counter);
        if (clipped !== "") {
          items[i] = { ...it, text: clipped };
          chosen[i] = true;
          used += counter.count(clipped) + 1 + header;
          opened.add(it.section);
        }
      }
    }
  }
  // The estimate is not exactly additive: drop the least useful chosen items until the whole fits.
  let text = print(items, chosen, style);
  for (let tier = 0; tier <= 9 && counter.count(text) > budget; tier++) {
    const bucket = byTier[tier]!;
    for (let k = 0; k < bucket.length && counter.count(text) > budget; k++) {
      const i = bucket[k]!;
      if (chosen[i] !== true || items[i]!.section === "goal") continue;
      chosen[i] = false;
      text = print(items, chosen, style);
    }
  }
  return counter.count(text) <= budget ? text : fitHead(text, budget, counter);
}
