import { useCallback, useSyncExternalStore } from 'react';
import type { ViewState } from '../../src/shared/viewState';
import type { ViewMirror } from './mirror';

let mirror: ViewMirror | undefined;

export function bindMirror(m: ViewMirror): void {
  mirror = m;
}

/** The mirrored state right now, for callbacks that run outside render (list keys, key handlers). */
export function currentView(): ViewState | null {
  return mirror?.store.getState() ?? null;
}

/**
 * Re-renders only when the selected slice changes (Object.is), via useSyncExternalStore. With
 * `perFrame`, changes are passed on at most once per animation frame: a message that grows by
 * hundreds of deltas a second is drawn as often as the screen refreshes, and each delta in
 * between costs only the patch.
 */
export function useView<S>(selector: (state: ViewState) => S, perFrame = false): S | undefined {
  const store = mirror!.store;
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!perFrame) return store.subscribe(onChange);
      let frame: number | undefined;
      const unsubscribe = store.subscribe(() => {
        frame ??= requestAnimationFrame(() => {
          frame = undefined;
          onChange();
        });
      });
      return () => {
        if (frame !== undefined) cancelAnimationFrame(frame);
        unsubscribe();
      };
    },
    [store, perFrame],
  );
  const get = useCallback(() => {
    const s = store.getState();
    return s ? selector(s) : undefined;
  }, [store, selector]);
  return useSyncExternalStore(subscribe, get);
}
