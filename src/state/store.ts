export type Listener = () => void;
export type OnChange<T> = (args: { newState: T; oldState: T }) => void;

export interface Store<T> {
  getState(): T;
  setState(updater: (prev: T) => T): void;
  subscribe(listener: Listener): () => void;
}

/**
 * The whole reactive layer. Updates are functional so callers never act on a stale
 * snapshot; returning the same object is a no-op (Object.is), which is what keeps
 * selector subscribers quiet. onChange sees old and new before any listener runs, so
 * derived pushes (the webview bridge, persistence) observe every transition in order.
 */
export function createStore<T>(initialState: T, onChange?: OnChange<T>): Store<T> {
  let state = initialState;
  const listeners = new Set<Listener>();
  return {
    getState: () => state,
    setState(updater) {
      const prev = state;
      const next = updater(prev);
      if (Object.is(next, prev)) return;
      state = next;
      onChange?.({ newState: next, oldState: prev });
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/**
 * Calls `onSlice` only when the selected slice changes (by `equals`, Object.is by default).
 * The webview's useSyncExternalStore hook and host-side watchers both build on this.
 */
export function subscribeSelector<T, S>(
  store: Store<T>,
  selector: (state: T) => S,
  onSlice: (slice: S, prev: S) => void,
  equals: (a: S, b: S) => boolean = Object.is,
): () => void {
  let current = selector(store.getState());
  return store.subscribe(() => {
    const next = selector(store.getState());
    if (equals(next, current)) return;
    const prev = current;
    current = next;
    onSlice(next, prev);
  });
}
