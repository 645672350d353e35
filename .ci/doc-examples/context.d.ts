// Values the examples of @cc/context use without building them (see .ci/doc-examples.ts; read as
// packages/context/src/doc-fixtures.ts).
import type { ContextToolCore, ManagerSnapshot, TurnResult } from "./index.js";
import type { CostInput } from "./policy/cost-model.js";
import type { PolicySettings } from "./policy/settings.js";

/** The tool core of an index (`contextToolCore`, right). */
export declare const core: ContextToolCore;
/** What one turn of a manager returned. */
export declare const turn: TurnResult;
/** A manager's decoded policy settings. */
export declare const settings: PolicySettings;
/** A manager's snapshot. */
export declare const snapshot: ManagerSnapshot;
/** The manager's sealing key (of notes and recalls). */
export declare const key: string;
/** What the cost model is told about one turn. */
export declare const input: CostInput;
