/**
 * A wrapper that holds any {@link Provider} to its contract: a provider that throws or whose task
 * rejects yields `ProviderUnexpected` instead, and an optional timeout turns a hang into
 * `ProviderTimeout` (aborting the request). Every error message it passes on is redacted (URL
 * queries and userinfo, credential-named parameters and headers, bearer tokens, `sk-…` keys; see
 * {@link createRedactor}) and cut to 2,000 characters, whichever provider wrote it.
 *
 * @module providers/guard
 */
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import type { Completion, CompletionRequest, ModelInfo, Provider, ProviderError } from "@cc/messages";
import { createRedactor } from "./redact.js";

/** Characters of a provider's error message kept (a provider may put a whole response body in it). */
const MESSAGE_CHARS = 2000;
const redact = createRedactor();

/** `e` with its message redacted and bounded. */
function redacted(e: ProviderError): ProviderError {
  if (!("message" in e)) return e;
  const message = redact(e.message.length > 4 * MESSAGE_CHARS ? e.message.slice(0, 4 * MESSAGE_CHARS) : e.message);
  return { ...e, message: message.length > MESSAGE_CHARS ? `${message.slice(0, MESSAGE_CHARS)}…` : message };
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function caught<A>(run: () => TaskEither<ProviderError, A>): Promise<E.Either<ProviderError, A>> {
  try {
    return run()().then(
      (r) => (E.isLeft(r) ? E.left(redacted(r.left)) : r),
      (e: unknown) =>
        E.left<ProviderError, A>(
          redacted({ _tag: "ProviderUnexpected", message: `provider rejected: ${messageOf(e)}` }),
        ),
    );
  } catch (e) {
    return Promise.resolve(
      E.left<ProviderError, A>(redacted({ _tag: "ProviderUnexpected", message: `provider threw: ${messageOf(e)}` })),
    );
  }
}

/**
 * Guards `provider`. With `timeoutMs`, a completion that has not settled in time is aborted and
 * yields `ProviderTimeout`; a caller's abort yields `ProviderAborted` at once.
 *
 * @example const safe = guardProvider(provider, 30_000); // a provider of someone else's code
 */
export function guardProvider(provider: Provider, timeoutMs?: number): Provider {
  const complete =
    (request: CompletionRequest): TaskEither<ProviderError, Completion> =>
    () => {
      if (request.signal?.aborted === true) return Promise.resolve(E.left({ _tag: "ProviderAborted" }));
      const controller = new AbortController();
      const onAbort = (): void => controller.abort();
      request.signal?.addEventListener("abort", onAbort, { once: true });
      let timer: ReturnType<typeof setTimeout> | undefined;
      let onCallerAbort: (() => void) | undefined;
      const aborted = new Promise<E.Either<ProviderError, Completion>>((resolve) => {
        onCallerAbort = () => resolve(E.left({ _tag: "ProviderAborted" }));
        request.signal?.addEventListener("abort", onCallerAbort, { once: true });
      });
      const guarded: Promise<E.Either<ProviderError, Completion>>[] = [
        aborted,
        caught(() => provider.complete({ ...request, signal: controller.signal })).then((r) =>
          request.signal?.aborted === true ? E.left<ProviderError, Completion>({ _tag: "ProviderAborted" }) : r,
        ),
      ];
      if (timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs > 0) {
        guarded.push(
          new Promise((resolve) => {
            timer = setTimeout(() => {
              controller.abort();
              resolve(E.left({ _tag: "ProviderTimeout", timeoutMs }));
            }, timeoutMs);
          }),
        );
      }
      return Promise.race(guarded).finally(() => {
        if (timer !== undefined) clearTimeout(timer);
        request.signal?.removeEventListener("abort", onAbort);
        if (onCallerAbort !== undefined) request.signal?.removeEventListener("abort", onCallerAbort);
      });
    };
  const listModels = (): TaskEither<ProviderError, readonly ModelInfo[]> => () => caught(() => provider.listModels());
  return { name: provider.name, complete, listModels };
}
