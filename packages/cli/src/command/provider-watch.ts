/**
 * A provider wrapper that remembers its failures, so the command can tell a provider that failed
 * (unreachable, refused, cannot list its models) from a summary that was rejected on its merits.
 *
 * @module command/provider-watch
 */
import type { Provider, ProviderError } from "@cc/messages";
import * as E from "fp-ts/lib/Either.js";

/** `provider` with a record of every `Left` its calls returned. */
export interface WatchedProvider {
  readonly provider: Provider;
  /** The failures so far, each as `operation: tag: message`. */
  readonly failures: () => readonly string[];
}

const describe = (e: ProviderError): string =>
  `${e._tag}${"message" in e ? `: ${e.message}` : e._tag === "ProviderTimeout" ? `: no answer within ${e.timeoutMs} ms` : ""}`;

/** Wraps `provider`: same results, failures recorded (`listModels` and `complete`). */
export function watchProvider(provider: Provider): WatchedProvider {
  const failures: string[] = [];
  const note = <A>(operation: string, r: E.Either<ProviderError, A>): E.Either<ProviderError, A> => {
    if (E.isLeft(r)) failures.push(`${operation}: ${describe(r.left)}`);
    return r;
  };
  return {
    provider: {
      name: provider.name,
      complete: (request) => async () => note("completion", await provider.complete(request)()),
      listModels: () => async () => note("listing models", await provider.listModels()()),
    },
    failures: () => [...failures],
  };
}
