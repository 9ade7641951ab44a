import { useSyncExternalStore } from 'react';
import type { ContextReport } from '../../src/shared/contextView';
import { post } from './vscodeApi';

// The Context view's state lives here, outside the mirrored ViewState: the report is asked for
// while the view is open and never rides on the state's patches.
interface ContextChannelState {
  open: boolean;
  report: ContextReport | null;
  /** A request is on its way; a second one waits for its answer (one more, not one per change). */
  loading: boolean;
}

let state: ContextChannelState = { open: false, report: null, loading: false };
let again = false;
const listeners = new Set<() => void>();

function set(next: Partial<ContextChannelState>): void {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

/** Asks the host for a fresh report; while one is in flight, asks once more after it. */
export function requestContext(): void {
  if (!state.open) return;
  if (state.loading) {
    again = true;
    return;
  }
  set({ loading: true });
  post({ type: 'context/request', payload: {} });
}

export function receiveContextReport(report: ContextReport): void {
  set({ report, loading: false });
  if (again) {
    again = false;
    requestContext();
  }
}

export function openContext(): void {
  if (!state.open) set({ open: true });
  requestContext();
}

export function closeContext(): void {
  again = false;
  set({ open: false });
}

export function toggleContext(): void {
  if (state.open) closeContext();
  else openContext();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
};

export function useContextChannel(): ContextChannelState {
  return useSyncExternalStore(subscribe, () => state);
}
