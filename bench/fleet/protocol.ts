/**
 * What the fleet harness and its worker processes exchange: the worker's arguments (one JSON
 * argument), the events a worker appends to its events file, and the acknowledgement lines.
 * Pure.
 *
 * @module bench/fleet/protocol
 */

/** Arguments of one worker process. */
export interface WorkerArgs {
  readonly url: string;
  readonly table: string;
  /** The worker's number (0-based); its namespaces are its own. */
  readonly worker: number;
  /** How many times this worker was started before (ids and terms stay unique across restarts). */
  readonly incarnation: number;
  readonly namespaces: readonly string[];
  /** Acknowledged entries, one `namespace \t id \t term` line each, appended and fsynced. */
  readonly ackFile: string;
  /** {@link FleetEvent}s, one JSON line each. */
  readonly eventsFile: string;
  /** The worker stops once this file exists (the harness creates it at the end of the run). */
  readonly stopFile: string;
  /** Entries per write. */
  readonly batch: number;
  /** Pause between iterations, ms. */
  readonly pauseMs: number;
}

/** One thing a worker did. `at` is epoch ms; `inc` the worker process's incarnation. */
export type FleetEvent = { readonly inc: number } & (
  | { readonly t: "write"; readonly at: number; readonly ms: number; readonly entries: number }
  | {
      readonly t: "search";
      readonly at: number;
      readonly ms: number;
      readonly hits: number;
      /** Hits from a namespace other than the one searched. */
      readonly cross: number;
      /** Whether the entry just acknowledged was among the hits (read your own write). */
      readonly ownFound: boolean;
      /** The first search of this process. */
      readonly first: boolean;
      /** The first search that succeeded after a failed operation. */
      readonly afterOutage: boolean;
    }
  | { readonly t: "error"; readonly at: number; readonly op: string; readonly tag: string; readonly message: string }
);

/** One acknowledged entry. */
export interface Ack {
  readonly namespace: string;
  readonly id: string;
  readonly term: string;
}

/** The unique term (and id) of entry `j` of batch `b` of a worker's incarnation: one token, letters and digits. */
export function entryTerm(worker: number, incarnation: number, batch: number, j: number): string {
  return `fq${worker}x${incarnation}x${batch}x${j}`;
}

/** The worker arguments from their JSON text, or why they are not valid. */
export function decodeWorkerArgs(text: string): WorkerArgs | string {
  let u: unknown;
  try {
    u = JSON.parse(text);
  } catch {
    return "the argument is not JSON";
  }
  if (typeof u !== "object" || u === null) return "the argument is not an object";
  const o = u as Record<string, unknown>;
  for (const k of ["url", "table", "ackFile", "eventsFile", "stopFile"])
    if (typeof o[k] !== "string") return `${k}: expected a string`;
  for (const k of ["worker", "incarnation", "batch", "pauseMs"])
    if (typeof o[k] !== "number" || !Number.isFinite(o[k])) return `${k}: expected a number`;
  if (
    !Array.isArray(o["namespaces"]) ||
    o["namespaces"].length === 0 ||
    !o["namespaces"].every((n) => typeof n === "string")
  )
    return "namespaces: expected a non-empty list of strings";
  return o as unknown as WorkerArgs;
}

/** The complete lines of an acknowledgement file (a line cut short by a kill is not one). */
export function parseAcks(text: string): Ack[] {
  const lines = text.split("\n");
  lines.pop(); // after the last newline: empty, or a line cut short
  return lines.flatMap((line) => {
    const [namespace, id, term] = line.split("\t");
    return namespace === undefined || id === undefined || term === undefined ? [] : [{ namespace, id, term }];
  });
}

/** The events of an events file (a line cut short is skipped). */
export function parseEvents(text: string): FleetEvent[] {
  return text.split("\n").flatMap((line) => {
    if (line === "") return [];
    try {
      return [JSON.parse(line) as FleetEvent];
    } catch {
      return [];
    }
  });
}
