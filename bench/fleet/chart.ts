/**
 * The fleet benchmark's chart, pure: over the seconds of the run, the entries acknowledged per
 * second by every worker together (top) and the workers' search latency p50 and p99 per second
 * (bottom, log scale), with the server's down time shaded and every SIGKILL of a worker marked.
 *
 * @module bench/fleet/chart
 */
import { escapeXml, PALETTE } from "../report/svg.js";
import type { TimelineBucket } from "./fleet.js";

/** What the chart draws. */
export interface FleetChart {
  readonly title: string;
  readonly timeline: readonly TimelineBucket[];
  readonly killAt: readonly number[];
  readonly restartWindow: readonly [number, number];
}

const W = 960;
const LEFT = 80;
const RIGHT = 900;
const TOP = { y0: 60, y1: 260 } as const;
const BOTTOM = { y0: 320, y1: 520 } as const;

const f = (v: number): string => v.toFixed(1);

/** A polyline through the finite points. */
function line(points: readonly (readonly [number, number])[], colour: string, dash = ""): string {
  const ok = points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  if (ok.length === 0) return "";
  return `<polyline fill="none" stroke="${colour}" stroke-width="2"${dash === "" ? "" : ` stroke-dasharray="${dash}"`} points="${ok.map(([x, y]) => `${f(x)},${f(y)}`).join(" ")}"/>`;
}

/**
 * Renders the chart as a standalone SVG document.
 *
 * @example renderFleetChart({ title: "fleet", timeline: [{ second: 0, entriesAcked: 50, searchP50Ms: 2, searchP99Ms: 9, errors: 0 }], killAt: [], restartWindow: [0, 0] })
 */
export function renderFleetChart(chart: FleetChart): string {
  const seconds = Math.max(1, chart.timeline.length);
  const x = (s: number): number => LEFT + (s / seconds) * (RIGHT - LEFT);
  const maxRate = Math.max(1, ...chart.timeline.map((b) => b.entriesAcked));
  const yRate = (v: number): number => TOP.y1 - (v / maxRate) * (TOP.y1 - TOP.y0);
  const lat = chart.timeline.flatMap((b) => [b.searchP50Ms, b.searchP99Ms]).filter((v) => Number.isFinite(v) && v > 0);
  const lo = Math.floor(Math.log10(Math.max(0.1, Math.min(1, ...lat))));
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(10, ...lat))));
  const yLat = (v: number): number =>
    BOTTOM.y1 - ((Math.log10(Math.max(v, 10 ** lo)) - lo) / (hi - lo)) * (BOTTOM.y1 - BOTTOM.y0);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="580" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="580" fill="white"/>`,
    `<text x="${LEFT}" y="28" font-size="15">${escapeXml(chart.title)}</text>`,
  ];
  const [r0, r1] = chart.restartWindow;
  if (Number.isFinite(r0) && Number.isFinite(r1)) {
    for (const p of [TOP, BOTTOM])
      out.push(
        `<rect x="${f(x(r0))}" y="${p.y0}" width="${f(Math.max(2, x(r1) - x(r0)))}" height="${p.y1 - p.y0}" fill="#dddddd"/>`,
      );
    out.push(`<text x="${f(x(r0))}" y="${TOP.y0 - 6}" fill="#555">PostgreSQL down</text>`);
  }
  for (const k of chart.killAt)
    out.push(
      `<line x1="${f(x(k))}" x2="${f(x(k))}" y1="${TOP.y0}" y2="${BOTTOM.y1}" stroke="${PALETTE[1]}" stroke-dasharray="3,3"/>`,
    );
  for (const p of [TOP, BOTTOM])
    out.push(
      `<rect x="${LEFT}" y="${p.y0}" width="${RIGHT - LEFT}" height="${p.y1 - p.y0}" fill="none" stroke="#333"/>`,
    );
  // Axes: seconds under both panels, the rate's 0 and max, the latency decades.
  for (let s = 0; s <= seconds; s += Math.max(1, Math.ceil(seconds / 12))) {
    for (const p of [TOP, BOTTOM]) out.push(`<text x="${f(x(s))}" y="${p.y1 + 16}" text-anchor="middle">${s}</text>`);
  }
  out.push(
    `<text x="${(LEFT + RIGHT) / 2}" y="${BOTTOM.y1 + 36}" text-anchor="middle">seconds into the run (dashed: a worker SIGKILLed and started again)</text>`,
  );
  out.push(
    `<text x="${LEFT - 8}" y="${TOP.y1}" text-anchor="end">0</text>`,
    `<text x="${LEFT - 8}" y="${TOP.y0 + 4}" text-anchor="end">${maxRate}</text>`,
  );
  out.push(`<text x="${LEFT + 8}" y="${TOP.y0 + 16}">entries acknowledged per second, every worker</text>`);
  for (let e = lo; e <= hi; e++)
    out.push(
      `<text x="${LEFT - 8}" y="${f(yLat(10 ** e) + 4)}" text-anchor="end">${10 ** e >= 1 ? String(10 ** e) : (10 ** e).toFixed(-e)} ms</text>`,
      `<line x1="${LEFT}" x2="${RIGHT}" y1="${f(yLat(10 ** e))}" y2="${f(yLat(10 ** e))}" stroke="#eeeeee"/>`,
    );
  out.push(`<text x="${LEFT + 8}" y="${BOTTOM.y0 + 16}">search latency per second (log): p50 solid, p99 dashed</text>`);
  const mid = (b: TimelineBucket): number => b.second + 0.5;
  out.push(
    line(
      chart.timeline.map((b) => [x(mid(b)), yRate(b.entriesAcked)]),
      PALETTE[0]!,
    ),
  );
  out.push(
    line(
      chart.timeline.map((b) => [x(mid(b)), yLat(b.searchP50Ms)]),
      PALETTE[2]!,
    ),
  );
  out.push(
    line(
      chart.timeline.map((b) => [x(mid(b)), yLat(b.searchP99Ms)]),
      PALETTE[2]!,
      "6,4",
    ),
  );
  out.push("</svg>");
  return out.filter((s) => s !== "").join("\n");
}
