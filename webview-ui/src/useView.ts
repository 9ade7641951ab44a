import { useCallback, useSyncExternalStore } from 'react';
import type { ViewState } from '../../src/shared/viewState';
import type { ViewMirror } from './mirror';

let mirror: ViewMirror | undefined;

export function bindMirror(m: ViewMirror): void {
  mirror = m;
}

/** Re-renders only when the selected slice changes (Object.is), via useSyncExternalStore. */
export function useView<S>(selector: (state: ViewState) => S): S | undefined {
  const store = mirror!.store;
  const get = useCallback(() => {
    const s = store.getState();
    return s ? selector(s) : undefined;
  }, [store, selector]);
  return useSyncExternalStore(store.subscribe, get);
}
