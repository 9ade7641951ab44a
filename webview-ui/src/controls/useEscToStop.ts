import { useEffect } from 'react';
import { currentView } from '../useView';
import { post } from '../vscodeApi';

/**
 * Esc stops the answer from anywhere in the panel, not only from the composer. It reads the
 * state at the moment of the key, so an Esc while idle does nothing, and one Esc sends one stop.
 */
export function useEscToStop(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.isComposing || e.repeat) return;
      const status = currentView()?.status ?? 'idle';
      if (status === 'idle') return;
      e.preventDefault();
      post({ type: 'chat/stop', payload: {} });
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
}
