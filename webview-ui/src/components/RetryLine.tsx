import { useEffect, useState } from 'react';
import type { RetryView, ViewState } from '../../../src/shared/viewState';
import { useView } from '../useView';

const selectRetry = (s: ViewState) => s.retry;

/** Seconds left before the next attempt, ticking down; 0 once it has gone out. */
function useSecondsUntil(at: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [at]);
  return Math.max(0, Math.ceil((at - now) / 1000));
}

function Line({ retry }: { retry: RetryView }) {
  const seconds = useSecondsUntil(retry.at);
  const when = seconds > 0 ? `retrying in ${seconds} s` : 'retrying now';
  return (
    <div className="retry-line" role="status" aria-live="polite" data-testid="retry-line" title={retry.reason}>
      <span className="codicon codicon-sync" /> {retry.reason} — {when} (attempt {retry.attempt + 1})
    </div>
  );
}

/** The one transient line a retried request shows; it goes when the answer (or the final error) comes. */
export function RetryLine() {
  const retry = useView(selectRetry);
  return retry ? <Line retry={retry} /> : null;
}
