// Values the examples of @cc/openai-agents use without building them (see .ci/doc-examples.ts;
// read as packages/openai-agents/src/doc-fixtures.ts, so "@openai/agents" resolves to the
// adapter's own dependency).
import type { Agent, AgentInputItem, Session } from "@openai/agents";
import type { TurnResult } from "@cc/context";
import type { AgentsCompaction, ItemConversion } from "./index.js";

/** The adapter (`createAgentsCompaction`). */
export declare const cc: AgentsCompaction;
/** The agent a run starts with. */
export declare const agent: Agent;
/** A run's input items. */
export declare const items: AgentInputItem[];
/** A session the runs store their items in. */
export declare const session: Session;
/** The conversion of {@link items} to messages (`itemsToMessages`). */
export declare const conversion: ItemConversion;
/** What the manager's turn over the converted messages returned. */
export declare const turn: TurnResult;
