/**
 * Runs background memory work (extraction, session notes) without ever running two at once.
 * A request that arrives while one runs is stashed; only the latest stash runs when the
 * current run ends (it sees every message the earlier stashes would have), folded with the
 * stashes before it by `merge` (by default the latest simply wins). `drain()` waits for all
 * of it, for deactivate and CLI exit.
 */
export interface ExtractionScheduler<C> {
  request(context: C): void;
  drain(): Promise<void>;
  readonly running: boolean;
}

export function createExtractionScheduler<C>(run: (context: C) => Promise<void>, onError: (err: unknown) => void = () => undefined, merge: (stashed: C, next: C) => C = (_, next) => next): ExtractionScheduler<C> {
  let inFlight: Promise<void> | undefined;
  let pending: { context: C } | undefined;

  const start = (context: C): void => {
    inFlight = (async () => {
      let next: { context: C } | undefined = { context };
      while (next) {
        try {
          await run(next.context);
        } catch (err) {
          onError(err);
        }
        next = pending;
        pending = undefined;
      }
    })().finally(() => {
      inFlight = undefined;
    });
  };

  return {
    request(context) {
      if (inFlight) {
        pending = { context: pending ? merge(pending.context, context) : context };
        return;
      }
      start(context);
    },
    async drain() {
      while (inFlight) await inFlight;
    },
    get running() {
      return inFlight !== undefined;
    },
  };
}
