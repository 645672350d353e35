/**
 * Turns the free-form `data` of a results file into flat tables: arrays of row objects become
 * tables (nested objects flattened to `a.b` columns, timings to their median in ms), loose
 * scalars become a key/value table.
 */
import { formatNumber } from "../harness.js";

/** A flat table of already formatted cells. */
export interface Table {
  /** Where the rows came from inside `data` ("" for `data` itself). */
  readonly title: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** A measured timing as `measure` returns it. */
export interface TimingLike {
  readonly medianMs: number;
}

/** True for a plain (non-array, non-null) object. */
export const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u);

/** True for a `{ medianMs: number, … }` timing object. */
export const isTiming = (u: unknown): u is TimingLike => isRecord(u) && typeof u["medianMs"] === "number";

const MAX_DEPTH = 3;

function cell(v: unknown): string {
  if (typeof v === "number") return formatNumber(v);
  if (typeof v === "string") return v;
  if (typeof v === "boolean" || v === null) return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x !== "object" || x === null)) return v.map(cell).join(", ");
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/** An array of `{ n, medianMs }` points (a measured curve). */
const isMeasuredCurve = (u: unknown): u is readonly { readonly n: number; readonly medianMs: number }[] =>
  Array.isArray(u) &&
  u.length > 0 &&
  u.every((p: unknown) => isRecord(p) && typeof p["n"] === "number" && typeof p["medianMs"] === "number");

/** Flattens one row: timings → `key ms` (median), nested objects → `key.sub`. */
export function flattenRow(row: Readonly<Record<string, unknown>>, prefix = "", depth = 0): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(row)) {
    const key = prefix === "" ? k : `${prefix}.${k}`;
    if (isTiming(v)) out.push([`${key} ms`, formatNumber(v.medianMs)]);
    else if (isMeasuredCurve(v))
      out.push([
        `${key} (median ms by n)`,
        v.map((p) => `n=${formatNumber(p.n)}: ${formatNumber(p.medianMs)}`).join("; "),
      ]);
    else if (isRecord(v) && depth < MAX_DEPTH) out.push(...flattenRow(v, key, depth + 1));
    else out.push([key, cell(v)]);
  }
  return out;
}

function tableOf(title: string, rows: readonly Readonly<Record<string, unknown>>[]): Table {
  const flat = rows.map((r) => new Map(flattenRow(r)));
  const headers: string[] = [];
  for (const m of flat) for (const k of m.keys()) if (!headers.includes(k)) headers.push(k);
  return { title, headers, rows: flat.map((m) => headers.map((h) => m.get(h) ?? "")) };
}

const isRowArray = (u: unknown): u is readonly Readonly<Record<string, unknown>>[] =>
  Array.isArray(u) && u.length > 0 && u.every(isRecord);

/**
 * Every table found in `data`, depth-first in key order.
 *
 * @example tablesOf([{ n: 1000, compact: { medianMs: 0.4 } }]) // [{ title: "", headers: ["n", "compact ms"], rows: [["1,000", "0.4"]] }]
 */
export function tablesOf(data: unknown, title = "", depth = 0): Table[] {
  if (isRowArray(data)) return [tableOf(title, data)];
  if (!isRecord(data)) return data === undefined ? [] : [{ title, headers: ["value"], rows: [[cell(data)]] }];
  const tables: Table[] = [];
  const scalars: [string, string][] = [];
  for (const [k, v] of Object.entries(data)) {
    const sub = title === "" ? k : `${title}.${k}`;
    if (isRowArray(v) || (isRecord(v) && !isTiming(v) && depth < MAX_DEPTH))
      tables.push(...tablesOf(v, sub, depth + 1));
    else if (isTiming(v)) scalars.push([`${k} ms`, formatNumber(v.medianMs)]);
    else scalars.push([k, cell(v)]);
  }
  if (scalars.length > 0) tables.unshift({ title, headers: ["key", "value"], rows: scalars });
  return tables;
}
