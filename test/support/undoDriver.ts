import assert from 'node:assert/strict';
import type { Agent } from '../../src/agent/agent';
import { createAgent } from '../../src/agent/createAgent';
import { Permissions } from '../../src/permissions/permissions';
import { createToolRegistry } from '../../src/tools/builtin';
import { gitPreImages } from '../../src/checkpoints/git';
import { silentLogger } from '../../src/ports/logger';
import { SessionDriver } from '../../src/sessions/sessionDriver';
import type { FirstSession } from '../../src/sessions/sessionOpening';
import { SessionStore } from '../../src/sessions/sessionStore';
import { createStore } from '../../src/shared/store';
import { getDefaultAppState, type AppState } from '../../src/state/appState';
import { RuntimeState } from '../../src/state/runtimeState';
import { testHost } from './host';

/** The session driver as a face builds it, code checkpoints on, the real agent and tools over the stand-in at `url`; `sessionsDir` is kept across "restarts". */
export function undoDriver(o: { url: string; cwd: string; sessionsDir: string; first?: FirstSession }) {
  const { cwd, sessionsDir, first = { kind: 'new' } } = o;
  const runtime = new RuntimeState(cwd);
  const store = createStore<AppState>(getDefaultAppState({ sessionId: runtime.sessionId, settings: { model: 'claude-sonnet-4-6' } }));
  const sessions = new SessionStore(sessionsDir);
  const host = testHost({ apiKey: 'k', baseUrl: o.url });
  const driver = new SessionDriver<Agent>(
    {
      store,
      runtime,
      log: silentLogger,
      cwd,
      sessions,
      host,
      context: { clear: () => undefined, prefetch: () => undefined },
      prepareOpen: async () => undefined,
      checkpoints: { workspace: cwd, git: () => gitPreImages, watch: false },
      createAgent: (session) =>
        createAgent({
          store,
          runtime,
          log: silentLogger,
          cwd,
          host,
          tools: createToolRegistry(),
          permissions: new Permissions({ cwd, rules: () => ({ allow: ['Write', 'Edit', 'Bash'], ask: [], deny: [] }), trusted: () => true }),
          session,
        }),
    },
    first,
  );
  const user = (text: string) => {
    const m = store.getState().messages.find((x) => x.kind === 'user' && x.text === text);
    assert.ok(m, `a message "${text}"`);
    return m;
  };
  return { driver, store, sessions, host, user };
}

