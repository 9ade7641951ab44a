import { useEffect } from 'react';

/**
 * Runs `flush` when the reader may be leaving: the panel loses focus (the command palette opens
 * for Reload Window), the page hides or is torn down, and when the component goes.
 */
export function useFlushOnLeave(flush: () => void): void {
  useEffect(() => {
    const onHidden = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    window.addEventListener('blur', flush);
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      window.removeEventListener('blur', flush);
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onHidden);
      flush();
    };
  }, [flush]);
}
