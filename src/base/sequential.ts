/**
 * Wraps an async function so that calls run one after another, never overlapping.
 * Each call still gets its own result; a rejection does not stall the queue.
 */
export function sequential<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  let tail: Promise<unknown> = Promise.resolve();
  return (...args: A) => {
    const run = tail.then(() => fn(...args));
    tail = run.catch(() => undefined);
    return run;
  };
}
