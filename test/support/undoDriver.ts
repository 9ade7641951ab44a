import assert from 'node:assert/strict';
import type { FirstSession } from '../../src/sessions/sessionOpening';
import { testDriver } from './driverFixture';

/** The session driver as a face builds it, code checkpoints on, the real agent and tools over the stand-in at `url`; `sessionsDir` is kept across "restarts". */
export function undoDriver(o: { url: string; cwd: string; sessionsDir: string; first?: FirstSession }) {
  const { driver, store, sessions, host } = testDriver({ ...o, allow: ['Write', 'Edit', 'Bash'], checkpoints: true });
  const user = (text: string) => {
    const m = store.getState().messages.find((x) => x.kind === 'user' && x.text === text);
    assert.ok(m, `a message "${text}"`);
    return m;
  };
  return { driver, store, sessions, host, user };
}
