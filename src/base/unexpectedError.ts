/**
 * Where errors go that nobody awaits (a listener that throws, a fire-and-forget promise): they
 * must not stop the code that happened to trigger them. Hosts point this at their own log.
 */
let handler: (err: unknown) => void = (err) => console.error('[threadline] unexpected error:', err);

export function setUnexpectedErrorHandler(next: (err: unknown) => void): () => void {
  const previous = handler;
  handler = next;
  return () => {
    handler = previous;
  };
}

export function onUnexpectedError(err: unknown): void {
  try {
    handler(err);
  } catch {
    // A failing error handler has nowhere left to report to.
  }
}
