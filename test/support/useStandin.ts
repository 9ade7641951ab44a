import { after, afterEach, before, beforeEach } from 'node:test';
import { startStandin, type Standin, type StandinOptions } from '../standin/server';

export interface UseStandinOptions extends StandinOptions {
  /** When the stand-in forgets its queue, requests and cache: before each test (default), after each, or never. */
  reset?: 'before' | 'after' | false;
}

/**
 * One stand-in for the tests of the file, or of the describe block it is called in: started
 * before them, closed after them and reset between them; a test that leaves a scripted turn no
 * request matched fails. The object returned stands for that
 * stand-in; used before it has started (outside a test or hook) it throws instead of answering
 * with nothing.
 */
export function useStandin(opts: UseStandinOptions = {}): Standin {
  const { reset = 'before', ...options } = opts;
  let started: Standin | undefined;
  before(async () => {
    started = await startStandin(options);
  });
  after(() => started?.close());
  // A scripted turn no request matched fails the test that queued it (reset and close check it too).
  if (reset === 'before') {
    afterEach(() => started?.assertScriptUsed());
    beforeEach(() => started?.reset());
  }
  if (reset === 'after') afterEach(() => started?.reset());
  return new Proxy({} as Standin, {
    get(_target, prop) {
      if (!started) throw new Error(`the stand-in is used (${String(prop)}) before it has started: use it inside a test or hook`);
      const value: unknown = Reflect.get(started, prop);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(started) : value;
    },
  });
}
