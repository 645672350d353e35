// Values the examples of @cc/session use without building them (see .ci/doc-examples.ts; read as
// packages/session/src/doc-fixtures.ts).
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import type { Message } from "@cc/messages";
import type { PgPoolLike } from "@cc/search";
import type { ChatSession, EventBus, SessionCompactor, SessionEvent, StoredMessage, SummaryStore } from "./index.js";
import type { Pass, SummariseDeps, SummaryDecision, SummaryJob } from "./pass.js";

/** Runs a task and returns its right value (throws its left): what a caller's own helper does. */
export declare function right<A>(task: TaskEither<unknown, A>): Promise<A>;
/** A summary store. */
export declare const store: SummaryStore;
/** A session compactor (`createSessionCompactor`). */
export declare const compactor: SessionCompactor;
/** A chat session. */
export declare const session: ChatSession;
/** The session's event bus. */
export declare const bus: EventBus<SessionEvent>;
/** The same bus, as one compaction pass publishes to it. */
export declare const events: EventBus<SessionEvent>;
/** One event. */
export declare const event: SessionEvent;
/** The stored messages after the watermark. */
export declare const stored: readonly StoredMessage[];
/** The prompt built for a turn. */
export declare const prompt: readonly Message[];
/** A node-postgres pool the caller owns. */
export declare const pool: PgPoolLike;
/** What one compaction pass summarises with. */
export declare const deps: SummariseDeps;
/** The summary one pass is to write. */
export declare const job: SummaryJob;
/** One compaction pass (stack, trigger, signal). */
export declare const pass: Pass;
/** What the summariser decided for {@link job}. */
export declare const decision: SummaryDecision;
